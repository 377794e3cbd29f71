"""Other harnesses' rankers, the evidence variant, and out-of-sample evaluation (tune/test, folds).

Small hand-made catalogs, so every expected result can be checked by reading them; the
third-party sets under benchmarks/data are checked for shape and for a deterministic split.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from conftest import run_cli, write_yaml
from toolsearch.analysis import evaluation
from toolsearch.analysis.evaluation import (QueryFileError, Task, evaluate_folds, evaluation_json, evaluate_tuned, load_queries,
                                            one_sided_tuning,
                                            parse_queries, split_folds, tune)
from toolsearch.analysis.variants import EMPTY_RESULT, OTHER_HARNESSES, VARIANT_HELP, variant_options
from toolsearch.engine.catalog import load_source, load_text
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.search import FILLER_NOTE, SearchOptions, segment_words

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"


def inspector(tools: list[dict], name: str = "srv") -> Inspector:
    data = {"name": name, "servers": [{"name": name, "tools": tools}]}
    return Inspector(load_text(yaml.safe_dump(data), f"{name}.yaml"))


def tool(name: str, description: str, **params: str) -> dict:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": {k: {"type": "string", "description": v}
                                                             for k, v in params.items()}}}


def found(ins: Inspector, variant: str, query: str, limit: int = 10) -> list[str]:
    index = ins.bridge(parse_config({}), variant_options(variant)).index
    return [name.removeprefix("mcp__srv__") for name, _ in index.search(query, limit)]


CLOUD = inspector([
    tool("get_accounts_cfd_tunnel", "List Cloudflare Tunnels in an account."),
    tool("get_accounts_rules_lists", "Fetch all lists in the account."),
    tool("get_accounts", "List all accounts you have ownership or verified access to."),
    tool("generateguid", "Makes a new identifier."),
    tool("send_email", "Deliver a message.", recipient="Address of the person who receives the mail"),
    tool("weather_now", "Current conditions for a city."),
    tool("post_message", "Post a message to a chat channel.", channel="Channel to post to"),
])


# --- the registry names each harness's ranker with its source ------------------------------------

def test_other_harnesses_are_labeled_with_their_source():
    assert OTHER_HARNESSES == ("anthropic-bm25", "anthropic-regex", "hermes-name-bonus")
    assert "Anthropic's tool search tool" in VARIANT_HELP["anthropic-bm25"]
    assert "Anthropic's tool search tool" in VARIANT_HELP["anthropic-regex"]
    assert "proposed upstream for Hermes Agent's tool search (NousResearch/hermes-agent" in VARIANT_HELP["hermes-name-bonus"]
    assert variant_options("anthropic-bm25") == SearchOptions(gate=False, coverage=False, index_param_descriptions=True,
                                                              max_results=5, never_empty=True)


# --- Anthropic-style BM25 ------------------------------------------------------------------------

def test_anthropic_bm25_indexes_argument_descriptions():
    # "mail" occurs only in send_email's argument description.
    assert found(CLOUD, "anthropic-bm25", "mail") == ["send_email"]
    assert found(CLOUD, "plain-bm25", "mail") == []


def test_anthropic_bm25_at_most_five_and_never_empty():
    query = "list accounts message identifier city"
    assert len(found(CLOUD, "plain-bm25", query, limit=25)) == 7  # every tool sharing a term
    assert len(found(CLOUD, "anthropic-bm25", query, limit=25)) == 5
    # Nothing shares a word: still five tools, in catalog (tool-list) order, with score 0.
    assert found(CLOUD, "anthropic-bm25", "zebra") == ["generateguid", "get_accounts", "get_accounts_cfd_tunnel",
                                                        "get_accounts_rules_lists", "post_message"]
    assert found(CLOUD, "reference", "zebra") == []


# --- Anthropic-style regex -----------------------------------------------------------------------

def test_anthropic_regex_names_first_then_text_in_catalog_order():
    # Matches names get_accounts*, then descriptions holding "account" (none left) -> names only.
    assert found(CLOUD, "anthropic-regex", "^get_accounts") == ["get_accounts", "get_accounts_cfd_tunnel",
                                                                "get_accounts_rules_lists"]
    # "message" is in post_message's name and in send_email's description: the name match first.
    assert found(CLOUD, "anthropic-regex", "MESS?AGE") == ["post_message", "send_email"]
    # Argument descriptions count too.
    assert found(CLOUD, "anthropic-regex", r"receives\s+the") == ["send_email"]


def test_anthropic_regex_bad_pattern_is_literal_and_cut_at_five():
    assert found(CLOUD, "anthropic-regex", "get_accounts(") == []
    assert found(CLOUD, "anthropic-regex", "(") == []
    assert len(found(CLOUD, "anthropic-regex", ".", limit=25)) == 5



# Each description makes "(x|x)+y" backtrack for a fraction of a second before it matches "xy":
# a scan with a time limit per step took that fraction times the number of tools.
BACKTRACK = [tool(f"slow_{i:02d}", "x" * 20 + " then xy") for i in range(30)]


def test_anthropic_regex_scan_has_one_time_budget_and_says_when_it_stops(monkeypatch):
    import time  # noqa: PLC0415

    from toolsearch.engine import search as search_mod  # noqa: PLC0415
    from toolsearch.engine.search import RegexScan  # noqa: PLC0415

    REGEX_TIMEOUT = 0.5  # a shorter budget than the shipped 2 s: the same rule, a quarter of the CPU
    monkeypatch.setattr(search_mod, "REGEX_TIMEOUT", REGEX_TIMEOUT)

    index = inspector(BACKTRACK).bridge(parse_config({}), variant_options("anthropic-regex")).index
    # CPU time of this thread, not wall time: the budget is wall time, so the scan can use at most
    # that much CPU, however loaded the machine (wall time on a loaded machine overshot 4 s). One
    # budget per matching tool instead of one per scan would use several seconds of CPU (30 tools
    # of a fraction of a second each).
    started = time.thread_time()
    scan = index.regex_scan("(x|x)+y", 50)
    assert time.thread_time() - started < 4 * REGEX_TIMEOUT
    assert scan.timed_out and not scan.literal and len(scan.matches) < len(BACKTRACK)
    started = time.thread_time()
    index.search("(x|x)+y", 50)
    assert time.thread_time() - started < 4 * REGEX_TIMEOUT
    assert index.regex_scan("then xy[", 5) == RegexScan([], False, True)
    # An eval miss names the time limit, not "the pattern does not match".
    assert index.regex_matches_tool("then xy", "mcp__srv__slow_11") is True
    assert index.regex_matches_tool("nothing", "mcp__srv__slow_11") is False


@pytest.mark.parametrize("pattern", ["a{1000000000}", "((a{100}){100}){1000}", "ab" * 3000, "(" * 10000])
def test_anthropic_regex_patterns_that_would_hang_are_not_run(pattern):
    """The regex package unrolls repeat counts while compiling (a{1000000000} takes all memory) and
    does not check its timeout inside a long literal (6,000 characters: 44 s): such patterns run
    as literal text or, above 200 characters, not at all, and the scan says so."""
    import time  # noqa: PLC0415

    index = inspector(BACKTRACK).bridge(parse_config({}), variant_options("anthropic-regex")).index
    started = time.monotonic()
    scan = index.regex_scan(pattern, 5)
    assert time.monotonic() - started < 5.0  # not run as a regex at all (it took 44 s, or all memory)
    assert scan.matches == [] and (scan.too_long if len(pattern) > 200 else scan.literal)
    assert scan.notes() and not scan.timed_out
    if len(pattern) > 200:
        assert scan.notes() == ["the pattern is longer than 200 characters, the regex mode's limit; nothing was searched"]
    assert found(CLOUD, "anthropic-regex", "get_acc{1}ounts$") == ["get_accounts"]  # small counts still run


@pytest.mark.parametrize("pattern", ["(?r)then", r"\p{L}+ xy", "(?V1)[[a-z]--[aeiou]]", r"\L<words>"])
def test_anthropic_regex_syntax_python_re_refuses_is_literal(pattern):
    """The regex form takes Python regular expressions; the regex package's own syntax is matched
    as literal text, as a pattern that does not compile is (a reverse search, (?r), found only the
    last tool whose text matched, while the per-tool check said every one did)."""
    index = inspector(BACKTRACK).bridge(parse_config({}), variant_options("anthropic-regex")).index
    scan = index.regex_scan(pattern, 50)
    assert scan.literal and scan.matches == [], scan
    assert index.regex_matches_tool(pattern, "mcp__srv__slow_00") is False
    assert len(index.regex_scan("then", 50).matches) == len(BACKTRACK)  # the same words as Python re: all



def test_cli_regex_search_prints_no_python_warning(tmp_path):
    """A pattern Python's re warns about ([[ reads as a possible nested set) is checked without
    that warning reaching the user's terminal (its own process: pytest shows warnings itself)."""
    from conftest import run_cli_process  # noqa: PLC0415

    cat = tmp_path / "slow.json"
    cat.write_text(json.dumps([{"server": "srv", **t} for t in BACKTRACK]))
    result = run_cli_process("search", cat, "-q", "[[a-z]--x]", "--variant", "anthropic-regex")
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_anthropic_regex_large_repeat_products_are_literal_and_patterns_are_not_kept_by_the_package():
    """A product of minimum repeat counts of 1,000,000 compiled to about 250 MB, and the regex
    package kept 500 compiled patterns: a few such queries on the Search page held gigabytes. Such a
    product is matched as literal text; compiled patterns are kept in a small cache of our own."""
    import regex as regex_mod  # noqa: PLC0415
    import sys  # noqa: PLC0415

    from toolsearch.engine import search as search_mod  # noqa: PLC0415

    index = inspector(BACKTRACK).bridge(parse_config({}), variant_options("anthropic-regex")).index
    assert index.regex_scan("(?:x{1000}){1000}", 5).literal
    assert not index.regex_scan("(?:x{100}){100}", 5).literal  # 10,000: still run
    package = sys.modules[regex_mod.compile.__module__]
    regex_mod.purge()
    getattr(search_mod._compile_pattern, "cache_clear", lambda: None)()
    index.regex_scan("(?:then){2}|x{3}y", 5)
    assert len(getattr(package, "_cache", {})) == 0
    assert search_mod._compile_pattern.cache_info().maxsize == search_mod.REGEX_PATTERN_CACHE


def test_cli_explain_under_regex_shows_the_pattern_matches_not_bm25_rules(tmp_path):
    cat = tmp_path / "cloud.json"
    cat.write_text(json.dumps([{"server": "srv", **t} for t in (
        tool("get_accounts", "List all accounts."), tool("post_message", "Post a message to all accounts"))]))
    result = run_cli("explain", cat, "-q", "accounts$", "--variant", "anthropic-regex")
    assert result.returncode == 0, result.stderr
    assert "gate" not in result.stdout and "idf" not in result.stdout
    assert [line.split() for line in result.stdout.splitlines()[-2:]] == [
        ["1", "mcp__srv__get_accounts", "name"], ["2", "mcp__srv__post_message", "description", "or", "parameters"]]
    data = json.loads(run_cli("explain", cat, "-q", "accounts(", "--variant", "anthropic-regex", "--json").stdout)
    assert data["query_mode"] == "regex" and data["literal"] is True and data["matches"] == []
    assert data["why"] == "the pattern matches no tool's name, description, parameter names or parameter descriptions"


def test_anthropic_regex_miss_past_the_result_cap_is_a_rank_miss():
    """A tool the pattern matches but the 5-result cap leaves out is a rank miss; only a tool the
    pattern does not match is a pattern miss."""
    qf = parse_queries({"tasks": [{"id": "t", "query": ".", "expected": ["mcp__srv__weather_now"]},
                                  {"id": "u", "query": "weather_z", "expected": ["mcp__srv__weather_now"]},
                                  {"id": "v", "query": "weather" * 40, "expected": ["mcp__srv__weather_now"]}]}, "q.yaml")
    misses = evaluation.evaluate(CLOUD, qf, ["anthropic-regex"]).variant("anthropic-regex").misses
    assert [(m.task, m.cause, m.detail) for m in misses] == [
        ("t", "rank", "the pattern matches it, but the variant returns at most 5 tools"),
        ("u", "pattern", "the pattern matches neither its name, its description nor its parameters"),
        ("v", "pattern", "the pattern is longer than 200 characters; the regex mode searches nothing")]


def test_anthropic_regex_miss_of_a_pattern_that_does_not_compile_says_it_was_matched_as_text():
    """An eval miss for a query that is not a usable regular expression says, as ``search`` and
    ``explain`` do, that it was matched as literal text (otherwise "the pattern matches neither"
    reads as if the pattern had run)."""
    qf = parse_queries({"tasks": [{"id": "w", "query": "weather(", "expected": ["mcp__srv__weather_now"]},
                                  {"id": "x", "query": "weather_z", "expected": ["mcp__srv__weather_now"]}]}, "q.yaml")
    misses = evaluation.evaluate(CLOUD, qf, ["anthropic-regex"]).variant("anthropic-regex").misses
    details = {m.task: m.detail for m in misses}
    assert details["w"] == ("the pattern matches neither its name, its description nor its parameters (the query is "
                            "not a regular expression that can be run safely (it does not compile, or its repeat counts "
                            "multiply past 10,000); it was matched as literal text)")
    assert "literal" not in details["x"]


def test_cli_search_regex_notes_a_stopped_scan_and_a_literal_pattern(tmp_path, monkeypatch):
    from toolsearch.engine import search as search_mod  # noqa: PLC0415

    monkeypatch.setattr(search_mod, "REGEX_TIMEOUT", 0.5)  # run_cli runs in this process: a shorter budget
    cat = tmp_path / "slow.json"
    cat.write_text(json.dumps([{"server": "srv", **t} for t in BACKTRACK]))
    result = run_cli("search", cat, "-q", "(x|x)+y", "-q", "then xy[", "--variant", "anthropic-regex")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  note: the pattern ran for more than 0.5 s on the catalog's text (nested repeats such as (a+)+ " \
           "backtrack); tools after that point were not checked" in lines
    assert "  note: the query is not a regular expression that can be run safely (it does not compile, or its " \
           "repeat counts multiply past 10,000); it was matched as literal text" in lines
    assert "  why: the pattern matches no tool's name, description, parameter names or parameter descriptions" \
        in lines and "Gate term" not in result.stdout


# --- Hermes name-coverage bonus ------------------------------------------------------------------

def test_hermes_name_bonus_prefers_the_name_the_query_spells_out():
    assert found(CLOUD, "reference", "accounts")[0] == "get_accounts_cfd_tunnel"
    assert found(CLOUD, "hermes-name-bonus", "accounts")[0] == "get_accounts"
    # Admission is the reference's: a query the reference leaves empty stays empty.
    assert found(CLOUD, "hermes-name-bonus", "accounts zebra") == found(CLOUD, "reference", "accounts zebra") == []


# --- evidence --------------------------------------------------------------------------------------

def test_segment_words_splits_run_together_identifiers_only():
    assert segment_words("generateguid") == "generate guid"
    assert segment_words("shortener") == "shortener"
    assert segment_words("get user") == "get user"


def test_evidence_splits_names_and_abstains_on_weak_matches():
    assert found(CLOUD, "evidence", "generate a GUID") == ["generateguid"]
    assert found(CLOUD, "plain-bm25", "generate a GUID")[0] == "post_message"  # through "a" alone
    # One shared common word ("current") out of a long request: the best match is too weak.
    assert found(CLOUD, "plain-bm25", "file my tax return for the current year")[0] == "weather_now"
    assert found(CLOUD, "evidence", "file my tax return for the current year") == []
    # camelCase in the query meets snake_case in names.
    assert found(CLOUD, "evidence", "postMessage to channel")[0] == "post_message"


def test_evidence_help_says_what_a_one_word_query_needs():
    """The help promises two distinct query words held by the best match; a one-word query is
    answered with its one word, and the help says so."""
    assert "at least two of its distinct words (the one word of a one-word query)" in VARIANT_HELP["evidence"]
    assert found(CLOUD, "evidence", "tunnels")[:1] == ["get_accounts_cfd_tunnel"]
    assert found(CLOUD, "evidence", "tunnels pizza") == []


def test_evidence_thresholds_decide_emptiness_not_order():
    ins = CLOUD
    loose = ins.bridge(parse_config({}), variant_options("evidence", {"min_best_share": 0.0, "min_best_terms": 1}))
    strict = ins.bridge(parse_config({}), variant_options("evidence", {"min_best_share": 0.99, "min_best_terms": 1}))
    query = "post a message to the ops channel"
    ranked, evidence = loose.index.ranked_evidence(query, 5)
    share, held, distinct, ratio = evidence
    assert ranked[0][0] == "mcp__srv__post_message" and held == 3 and distinct == 4 and 0.5 < share < 0.99
    assert ratio == ranked[0][1] / ranked[1][1] > 1
    assert loose.index.search(query, 5) == ranked
    assert strict.index.search(query, 5) == []
    # A clear winner: the best match must score at least min_score_ratio times the second.
    for need, empty in ((ratio * 0.99, False), (ratio * 1.01, True)):
        opts = variant_options("evidence", {"min_best_share": 0.0, "min_best_terms": 1, "min_score_ratio": need})
        assert (ins.bridge(parse_config({}), opts).index.search(query, 5) == []) is empty


# --- folds and tune/test -------------------------------------------------------------------------

def tasks(n: int) -> list[Task]:
    return [Task(f"t{i}", (f"query {i}",), (f"tool{i % 7}",) if i % 5 else (), group=f"g{i % 11}") for i in range(n)]


def test_split_folds_deterministic_and_by_group():
    first = split_folds(tasks(60), 4)
    assert first == split_folds(tasks(60), 4)
    assert sorted(t.id for f in first for t in f) == sorted(t.id for t in tasks(60))
    for f, part in enumerate(first):
        others = {t.group for g, o in enumerate(first) if g != f for t in o}
        assert not {t.group for t in part} & others
    assert split_folds(tasks(60), 4, seed=5) != first
    with pytest.raises(ValueError):
        split_folds(tasks(5), 1)


#: Six tasks over CLOUD, four with a tool and two abstention tests: 3 folds split them 4/1/1, 4 folds 2/2/0/2.
SIX_TASKS = {"tasks": [
    {"id": "acc", "queries": ["list accounts"], "expected": ["mcp__srv__get_accounts"]},
    {"id": "guid", "queries": ["generate guid"], "expected": ["mcp__srv__generateguid"]},
    {"id": "mail", "queries": ["send an email"], "expected": ["mcp__srv__send_email"]},
    {"id": "tax", "queries": ["file my tax return"], "expected": []},
    {"id": "pizza", "queries": ["order a pizza"], "expected": []},
    {"id": "chan", "queries": ["post message to channel"], "expected": ["mcp__srv__post_message"]}]}


def test_cli_eval_folds_refuses_a_fold_without_tasks(tmp_path):
    """As many groups as folds can still put every task in one fold (groups go to folds by a
    hash): its tasks would then be "tuned on the other folds", which hold nothing. Refused with
    one line, exit 2. (fold = sha256("23:<group>") mod 2: both groups here land in one fold.)"""
    cat = _cloud_file(tmp_path)
    two_groups = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"], "group": "accounts"},
        {"id": "b", "query": "order a pizza", "expected": [], "group": "pizza"}]})
    result = run_cli("eval", cat, two_groups, "--folds", "2", "--variant", "evidence")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert "2 folds: every task lands in fold 2 of 2" in result.stderr and "the file has 2 groups" in result.stderr
    with pytest.raises(QueryFileError, match="its tuning set"):
        evaluate_folds(CLOUD, load_queries(two_groups), 2, ["reference"])

def test_folds_tune_never_sees_the_scored_tasks(monkeypatch):
    """Each fold's parameters are chosen from the tuning points of the other folds' tasks only
    (the search pass they are computed from is shared, but a point of one fold counts no task of
    that fold)."""
    seen: list[list[int]] = []
    real = evaluation._grid_points

    def spy(variant, passes, chosen):
        seen.append(list(chosen))
        return real(variant, passes, chosen)

    monkeypatch.setattr(evaluation, "_grid_points", spy)
    qf = parse_queries(SIX_TASKS)
    ev = evaluate_folds(CLOUD, qf, 3, ["evidence", "reference"])
    parts = split_folds(qf.tasks, 3)
    ordered = [t for part in parts for t in part]  # the order the shared search pass took the tasks in
    assert len(seen) == 3
    for chosen, part in zip(seen, parts):
        assert {ordered[i].id for i in chosen} == {t.id for t in qf.tasks} - {t.id for t in part}
        assert len(chosen) == len(qf.tasks) - len(part)
    result = ev.variant("evidence")
    assert [t.task.id for t in result.tasks] == [t.id for t in qf.tasks] and len(result.fold_params) == 3
    assert ev.protocol == "3-fold" and ev.variant("reference").fold_params == ()


def test_a_fold_no_task_landed_in_is_not_tuned_and_says_so():
    """With 4 folds this file leaves fold 3 empty: nothing is scored there, so it gets no tuned
    values (``{}`` in the JSON) and its line says why, instead of values tuned for nothing."""
    qf = parse_queries(SIX_TASKS)
    assert [len(p) for p in split_folds(qf.tasks, 4)] == [2, 2, 0, 2]
    ev = evaluate_folds(CLOUD, qf, 4, ["evidence"])
    params = ev.variant("evidence").fold_params
    assert params[2] == {} and all(params[f] for f in (0, 1, 3))
    lines = ev.tuned_lines()
    assert "tuned evidence, fold 3: nothing (no task landed in this fold)" in lines
    assert all("=" in line for line in lines if "fold 3" not in line)
    assert json.loads(evaluation_json(ev))["variants"][0]["fold_params"][2] == {}


def test_tune_picks_on_tuning_tasks_only():
    tuning = [Task("tax", ("file my tax return for the current year",), ()),
              Task("chan", ("post message to channel",), ("mcp__srv__post_message",))]
    params = tune(CLOUD, tuning, "evidence")
    assert set(params) == {"min_best_share", "min_best_terms", "min_score_ratio", "field_weights"}
    opts = variant_options("evidence", params)
    index = CLOUD.bridge(parse_config({}), opts).index
    assert index.search(tuning[0].queries[0], 5) == [] and index.search(tuning[1].queries[0], 5)


def test_best_point_is_the_tuning_rule():
    """Recall among the points that reach the abstention target; else recall + empty; ties keep the
    grid order; nothing to choose from is an error."""
    from toolsearch.analysis.evaluation import TuningPoint, best_point

    a = TuningPoint({"t": 1}, 0.9, 0.5)
    b = TuningPoint({"t": 2}, 0.4, 0.95)
    c = TuningPoint({"t": 3}, 0.6, 0.96)
    d = TuningPoint({"t": 4}, 0.6, 0.99)
    assert best_point([a, b, c, d]) is d  # recall 0.6 twice: the emptier one
    e = TuningPoint({"t": 5}, 0.6, 0.99)
    assert best_point([a, d, e]) is d and best_point([a, e, d]) is e  # full ties keep the grid order
    assert best_point([a, b], target=0.999) is a  # none reaches it: 0.9 + 0.5 beats 0.4 + 0.95
    assert best_point([a, b, d], target=0.999) is d  # 0.6 + 0.99 beats both
    assert best_point([TuningPoint({}, 0.3, None)]).query_recall == 0.3  # no abstention tasks: counts as empty
    with pytest.raises(ValueError):
        best_point([])


def test_tune_test_files_must_not_overlap():
    qf = parse_queries({"tasks": [{"id": "a", "query": "x", "expected": [], "group": "g"}]}, "t.yaml")
    other = parse_queries({"tasks": [{"id": "b", "query": "x", "expected": [], "group": "g"}]}, "u.yaml")
    with pytest.raises(QueryFileError, match="also in the tuning file"):
        evaluate_tuned(CLOUD, qf, qf, ["reference"])
    with pytest.raises(QueryFileError, match="group 'g'"):
        evaluate_tuned(CLOUD, qf, other, ["reference"])
    # Worded from the field the group comes from: a group the user named like the key of ungrouped
    # tasks still reads as a group (before: "expected tools 'x' (tasks without a group ...)").
    odd = parse_queries({"tasks": [{"id": "c", "query": "y", "expected": ["x"], "group": "expected:x"}]}, "v.yaml")
    plain = parse_queries({"tasks": [{"id": "d", "query": "z", "expected": ["x"]}]}, "w.yaml")
    with pytest.raises(QueryFileError, match=r"w\.yaml: expected tools 'x' \(tasks without a group are grouped"):
        evaluate_tuned(CLOUD, odd, plain, ["reference"])
    with pytest.raises(QueryFileError, match=r"v\.yaml: group 'expected:x' is also in the tuning file w\.yaml"):
        evaluate_tuned(CLOUD, plain, odd, ["reference"])


def test_cli_eval_tune_test_refuses_the_same_tool_on_both_sides_without_groups(tmp_path):
    """Tasks without a ``group`` are grouped by their expected tools, for folds and for
    ``--tune``/``--test`` alike: the same tool's requests on both sides are refused."""
    cat = _cloud_file(tmp_path)
    tune_file = write_yaml(tmp_path / "tune.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"]}]})
    test_file = write_yaml(tmp_path / "test.yaml", {"tasks": [
        {"id": "b", "query": "show my accounts", "expected": ["mcp__srv__get_accounts"]}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", tune_file, "--variant", "evidence")
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    assert "expected tools 'mcp__srv__get_accounts'" in result.stderr and "one side" in result.stderr


def test_cli_eval_warns_about_tuning_names_the_catalog_lacks(tmp_path):
    """A tuning file for another catalog is not tuned on silently: its unknown expected names are
    named on stderr, as the scored file's are."""
    cat = _cloud_file(tmp_path)
    tune_file = write_yaml(tmp_path / "tune.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__other__get_accounts"]},
        {"id": "b", "query": "order a pizza", "expected": []}]})
    test_file = write_yaml(tmp_path / "test.yaml", {"tasks": [
        {"id": "c", "query": "post a message", "expected": ["mcp__srv__post_message"]}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", tune_file, "--variant", "evidence", "--json")
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {tune_file}: 1 expected name not among the deferred tools of this catalog "
            "(the tuning tasks that expect them can never be found): mcp__other__get_accounts") in result.stderr
    assert json.loads(result.stdout)["tuning_unknown_expected"] == ["mcp__other__get_accounts"]


def test_cli_eval_tune_test_and_folds(tmp_path):
    cat = tmp_path / "cloud.json"
    cat.write_text(json.dumps([{"server": "srv", **t} for t in (
        tool("get_accounts", "List all accounts."), tool("generateguid", "Makes a new identifier."),
        tool("post_message", "Post a message to a chat channel."))]))
    tune_file = write_yaml(tmp_path / "tune.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"]},
        {"id": "b", "query": "order a pizza tonight", "expected": []}]})
    test_file = write_yaml(tmp_path / "test.yaml", {"tasks": [
        {"id": "c", "query": "generate guid", "expected": ["mcp__srv__generateguid"]},
        {"id": "d", "query": "book a flight", "expected": []}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", tune_file, "--variant", "evidence", "--progress")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    at = lines.index("out of sample: parameters tuned on 'tune' only; figures are on 'test'")
    assert lines[at + 1].startswith("  tuned evidence: ") and "min_best_share=" in lines[at + 1]
    assert "toolsearch: eval: evidence 2/2 tasks" in result.stderr
    # Tuning counts the tuning file's tasks (2 here), not one pseudo-task.
    shown = result.stderr.splitlines()
    assert "toolsearch: eval: tuning evidence on 0/2 tasks" in shown
    assert "toolsearch: eval: tuning evidence on 2/2 tasks" in shown and "0/1 tasks" not in result.stderr
    # and counts while it searches (three name weights × 2 tasks: the third search is one task on)
    assert "toolsearch: eval: tuning evidence on 1/2 tasks" in shown
    # Groups chosen so that each of the two folds holds tasks (fold = sha256("23:<group>") mod 2).
    fold_file = write_yaml(tmp_path / "all.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"], "group": "accounts"},
        {"id": "b", "query": "order a pizza tonight", "expected": [], "group": "pizza"},
        {"id": "c", "query": "generate guid", "expected": ["mcp__srv__generateguid"], "group": "guid"},
        {"id": "d", "query": "book a flight", "expected": [], "group": "flight"}]})
    folds = run_cli("eval", cat, fold_file, "--folds", "2", "--variant", "evidence", "--json")
    assert folds.returncode == 0, folds.stderr
    data = json.loads(folds.stdout)
    assert data["protocol"] == "2-fold" and len(data["variants"][0]["fold_params"]) == 2
    again = run_cli("eval", cat, fold_file, "--folds", "2", "--variant", "evidence", "--json")
    assert again.stdout == folds.stdout
    bad = run_cli("eval", cat, "--test", test_file, "--tune", test_file)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "also in the tuning file" in bad.stderr
    both = run_cli("eval", cat, test_file, "--tune", tune_file, "--folds", "2")
    assert both.returncode == 2 and "not both" in both.stderr
    for k in ("0", "1", "two"):  # one sentence for every count that is not a fold split
        few = run_cli("eval", cat, fold_file, "--folds", k)
        assert few.returncode == 2, few.stderr
        assert f"--folds: expected a whole number of at least 2, got '{k}'" in few.stderr, few.stderr


def test_session_progress_line_keeps_its_carriage_return(monkeypatch):
    """``sessions`` rewrites its progress line in place on a terminal, through the same stream."""
    import io

    from toolsearch.cli import sessions as cli_sessions
    from toolsearch.cli.commands import TerminalSafeStream

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    term = Terminal()
    monkeypatch.setattr("sys.stderr", TerminalSafeStream(term))
    show = cli_sessions._progress("reading sessions")
    show(1, 2)
    show(2, 2)
    assert term.getvalue() == "\rtoolsearch: reading sessions: 1/2\rtoolsearch: reading sessions: 2/2\n"


def _cloud_file(tmp_path) -> Path:
    cat = tmp_path / "cloud.json"
    cat.write_text(json.dumps([{"server": "srv", **t} for t in (
        tool("get_accounts", "List all accounts you have access to."),
        tool("get_accounts_cfd_tunnel", "List Cloudflare Tunnels in an account."),
        tool("post_message", "Post a message to a chat channel."))]))
    return cat


def test_search_and_explain_say_when_the_evidence_thresholds_empty_the_result(tmp_path):
    """``tunnel pizza`` under ``evidence``: tools are admitted (they hold ``tunnel``), but the best
    match holds 1 of the 2 distinct words, so the result is empty. search's "why", explain's
    "nothing found" and eval's miss say so with the same words; no admitted tool is said to be
    "ranked below the limit"."""
    cat = _cloud_file(tmp_path)
    found = run_cli("search", cat, "-q", "tunnel pizza", "--variant", "evidence")
    assert found.returncode == 0, found.stderr
    assert "no matches" in found.stdout
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "a", "query": "tunnel pizza", "expected": ["mcp__srv__get_accounts_cfd_tunnel"]}]})
    data = json.loads(run_cli("eval", cat, queries, "--variant", "evidence", "--json").stdout)
    miss = data["variants"][0]["misses"][0]
    assert miss["cause"] == "evidence"
    shortfall = miss["detail"]
    assert shortfall.startswith("the best match (mcp__srv__get_accounts_cfd_tunnel) holds ")
    assert shortfall.endswith(" and 1 of its 2 distinct words; the variant needs 20% and 2, so the result is empty")
    why = next(line for line in found.stdout.splitlines() if line.strip().startswith("why:"))
    assert why.endswith(f"Nothing found: {shortfall}."), why
    explained = run_cli("explain", cat, "-q", "tunnel pizza", "--variant", "evidence")
    assert explained.returncode == 0, explained.stderr
    assert f"nothing found: {shortfall}" in explained.stdout.splitlines()
    assert "ranked below the limit" not in explained.stdout
    assert "not returned: the variant's evidence thresholds empty the result" in explained.stdout


def test_explain_never_empty_variant_names_its_filler(tmp_path):
    """``anthropic-bm25`` returns the first tools when nothing matches: explain says so."""
    cat = _cloud_file(tmp_path)
    explained = run_cli("explain", cat, "-q", "zebra", "--variant", "anthropic-bm25", "--limit", "2")
    assert explained.returncode == 0, explained.stderr
    assert ("nothing matched, so this variant returns the first tools by wire name (never empty on purpose): "
            "mcp__srv__get_accounts, mcp__srv__get_accounts_cfd_tunnel") in explained.stdout.splitlines()


def test_explain_hermes_name_bonus_scores_and_order_are_the_search_s():
    """explain under ``hermes-name-bonus`` shows the scores the search ranks by (bonus included),
    so its first admitted candidates are the search's matches, in order, with the same scores."""
    index = CLOUD.bridge(parse_config({}), variant_options("hermes-name-bonus")).index
    found = index.search("accounts", 3)
    ex = index.explain("accounts", 3)
    assert [(c.name, round(c.score, 9), c.rank) for c in ex.candidates[:3]] == [
        (name, round(score, 9), rank) for rank, (name, score) in enumerate(found, 1)]
    assert found[0][0] == "mcp__srv__get_accounts"


def test_semantic_extra_installed_but_broken_is_one_line_not_a_traceback(tmp_path, monkeypatch):
    """transformers present but failing to import (a broken PyTorch, a version clash):
    ``search`` and ``eval --variant semantic`` stop with one line and exit 2, and the check the
    Quality page makes before scoring says the same."""
    import os
    import subprocess
    import sys

    from conftest import run_cli_process

    pytest.importorskip("transformers")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "transformers.py").write_text('raise ImportError("libtorch_cpu.so: cannot open shared object")\n')
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(broken), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    catalog = ROOT / "sample_catalogs" / "team-workspace.yaml"
    expected = ("toolsearch: error: the semantic variant's optional extra is installed but does not load "
                "(libtorch_cpu.so: cannot open shared object); reinstall it: pip install torch==2.13.0 "
                "--index-url https://download.pytorch.org/whl/cpu, then pip install 'toolsearch[semantic]'\n")
    for args in (("search", catalog, "-q", "a query no cache holds 7f3a", "--variant", "semantic"),
                 ("eval", catalog, ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml", "--variant",
                  "semantic")):
        result = run_cli_process(*args)
        assert (result.returncode, result.stderr) == (2, expected), result.stderr[-2000:]
    probe = subprocess.run([sys.executable, "-c", "from toolsearch.analysis.variants import load_problem; "
                            "print(load_problem(['reference'])); print(load_problem(['evidence', 'semantic']))"],
                           capture_output=True, text=True, timeout=120)
    assert probe.stdout == "\n" + expected.removeprefix("toolsearch: error: "), probe.stderr[-2000:]


def _small_cli_files(tmp_path):
    cat = tmp_path / "cloud.json"
    cat.write_text(json.dumps([{"server": "srv", **t} for t in (
        tool("get_accounts", "List all accounts."), tool("generateguid", "Makes a new identifier."),
        tool("post_message", "Post a message to a chat channel."))]))
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"]},
        {"id": "b", "query": "generate guid", "expected": ["mcp__srv__generateguid"]},
        {"id": "c", "query": "order a pizza tonight", "expected": []}]})
    return cat, queries


def test_cli_eval_progress_rewrites_its_line_instead_of_printing_escapes(tmp_path):
    """The progress line goes back to the start of the line with a real carriage return; the
    terminal-safe stream must not turn it into a literal "\\x0d" on the user's screen."""
    cat, queries = _small_cli_files(tmp_path)
    result = run_cli("eval", cat, queries, "--variant", "reference", "--progress")
    assert result.returncode == 0, result.stderr
    assert "\\x0d" not in result.stderr and "⟨U+000D⟩" not in result.stderr
    assert "toolsearch: eval: reference 3/3 tasks" in result.stderr.splitlines()


def test_cli_eval_progress_line_leaves_no_tail_of_a_longer_line(tmp_path):
    """Each progress line overwrites the one before it: a shorter line ("no-gate 1/3 tasks" after
    "reference 3/3 tasks") is padded, so the terminal does not show "no-gate 1/3 taskssks"."""
    cat, queries = _small_cli_files(tmp_path)
    result = run_cli("eval", cat, queries, "--variant", "reference", "--variant", "no-gate", "--progress")
    assert result.returncode == 0, result.stderr
    screen = ""
    for part in result.stderr.replace("\n", "\r").split("\r"):  # run_cli reads \r as a line break
        screen = part + screen[len(part):]  # what a terminal shows after each carriage return
        if part.startswith("toolsearch: eval: no-gate "):
            assert screen.rstrip() == part.rstrip(), screen
    assert screen.rstrip() == "toolsearch: eval: no-gate 3/3 tasks"


def test_cli_eval_tune_file_of_one_kind_of_task_is_said(tmp_path):
    """A tuning file without abstention tests (or with nothing else) tunes the thresholds for one
    side of the trade-off only; eval says so on stderr instead of presenting the figures as tuned."""
    cat, _ = _small_cli_files(tmp_path)
    test_file = write_yaml(tmp_path / "test.yaml", {"tasks": [
        {"id": "c", "query": "generate guid", "expected": ["mcp__srv__generateguid"]},
        {"id": "d", "query": "book a flight", "expected": []}]})
    positive = write_yaml(tmp_path / "positive.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"]}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", positive, "--variant", "evidence")
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {positive}: no abstention task (expected: []), so the parameters were tuned for "
            "recall alone") in result.stderr
    nonsense = write_yaml(tmp_path / "nonsense.yaml", {"tasks": [
        {"id": "b", "query": "order a pizza tonight", "expected": []}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", nonsense, "--variant", "evidence")
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {nonsense}: every task is an abstention test (expected: []), so the parameters "
            "were tuned for empty results alone") in result.stderr
    both = write_yaml(tmp_path / "both.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"]},
        {"id": "b", "query": "order a pizza tonight", "expected": []}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", both, "--variant", "evidence")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    # --folds tunes on the file itself: the same sentence, naming the file
    positives = write_yaml(tmp_path / "positives.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"], "group": "one"},
        {"id": "c", "query": "generate guid", "expected": ["mcp__srv__generateguid"], "group": "two"}]})
    result = run_cli("eval", cat, positives, "--folds", "2", "--variant", "evidence")  # groups one, two: folds 0, 1
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {positives}: no abstention task (expected: []), so the parameters were tuned "
            "for recall alone") in result.stderr


def test_one_sided_tuning_names_the_missing_side():
    found = Task("a", ("list accounts",), ("mcp__srv__get_accounts",))
    empty = Task("b", ("order a pizza",), ())
    assert one_sided_tuning([found, empty]) == "" and one_sided_tuning([]) == ""
    assert one_sided_tuning([found]).startswith("no abstention task (expected: [])")
    assert one_sided_tuning([empty]).startswith("every task is an abstention test")


def test_folds_more_than_task_groups_is_a_clear_error(tmp_path):
    """More folds than task groups leaves folds empty (each still tuned on everything else): a
    huge K ran for minutes. The library refuses it, naming the file and the number of groups."""
    cat, queries = _small_cli_files(tmp_path)
    qf = load_queries(queries)
    with pytest.raises(QueryFileError, match=r"q\.yaml: 4 folds, but the file has 3 task groups"):
        evaluate_folds(CLOUD, qf, 4, ["reference"])
    huge = run_cli("eval", cat, queries, "--folds", "99999999999999999999", "--variant", "reference")
    assert huge.returncode == 2 and huge.stderr.count("\n") == 1, huge.stderr
    assert "3 task groups" in huge.stderr and "Traceback" not in huge.stderr
    assert evaluate_folds(CLOUD, qf, 3, ["reference"]).protocol == "3-fold"

# --- the third-party sets ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["metatool", "bfcl-live"])
def test_third_party_sets_split_by_group_and_match_their_catalog(name):
    ins = Inspector(load_source(DATA / name / "catalog.json"))
    deferred = set(ins.bridge(parse_config({})).deferred_by_name)
    tune_file, test_file, all_file = (load_queries(DATA / name / f"{p}.json") for p in ("tune", "test", "all"))
    assert {t.id for t in tune_file.tasks} | {t.id for t in test_file.tasks} == {t.id for t in all_file.tasks}
    assert not {t.group for t in tune_file.tasks} & {t.group for t in test_file.tasks}
    for qf in (tune_file, test_file):
        assert all(e in deferred for t in qf.tasks for e in t.expected)
        assert sum(t.abstention for t in qf.tasks) >= 20
        # A held-out tool's requests are absent: the tool is not in the catalog.
        assert all(f"mcp__{ins.catalog.servers[0].name}__{t.group}" not in deferred for t in qf.tasks if t.abstention)
    raw = json.loads((DATA / name / "test.json").read_text())
    assert raw["licence"] in ("MIT", "Apache-2.0") and len(raw["commit"]) == 40
    # No request stands on both sides, nor under two labels (the converter drops those).
    words = lambda qf: {" ".join(q.split()).casefold() for t in qf.tasks for q in t.queries}  # noqa: E731
    assert not words(tune_file) & words(test_file)
    groups: dict[str, set[str]] = {}
    for t in all_file.tasks:
        for q in t.queries:
            groups.setdefault(" ".join(q.split()).casefold(), set()).add(t.group)
    assert all(len(g) == 1 for g in groups.values())


# --- side by side with the reference (CLI and Search page) ------------------------------------------

def test_eval_names_a_catalog_called_by_its_file_stem_by_its_path():
    """The third-party catalogs are all ``catalog.json``: the report names the file as given, not
    "catalog catalog"; a catalog with its own name keeps it."""
    base = DATA / "metatool"
    result = run_cli("eval", base / "catalog.json", base / "test.json", "--variant", "reference")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert f"on catalog {base / 'catalog.json'} (179 deferred tools" in first
    assert "catalog catalog" not in result.stdout
    named = load_text(yaml.safe_dump({"name": "my tools", "servers": [{"name": "s", "tools": [{"name": "t"}]}]}),
                      "catalog.yaml")
    assert (named.label, load_text("[{\"name\": \"t\"}]", "x/catalog.json").label) == ("my tools", "x/catalog.json")


def test_cli_search_side_by_side():
    path = ROOT / "sample_catalogs" / "team-workspace.yaml"
    result = run_cli("search", path, "-q", "send a slack message", "-q", "zebra", "--side-by-side")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == ("columns: reference (what the model gets); what-if: anthropic-bm25 · after Anthropic's tool "
                        "search (BM25); what-if: anthropic-regex · after Anthropic's tool search (regex); "
                        "what-if: hermes-name-bonus · name-coverage bonus proposed for Hermes Agent")
    assert lines[1] == "query: send a slack message"
    assert lines[2].split() == ["rank", "reference", "anthropic-bm25", "anthropic-regex", "hermes-name-bonus"]
    # A variant that returns nothing says so in its first row (before: a blank column, which read
    # like a view that failed to fill it).
    assert lines[4].split("  ") and [c.strip() for c in re.split(r"\s{2,}", lines[4])] == [
        "1", "mcp__slack__slack_update_message", "mcp__slack__slack_update_message", EMPTY_RESULT,
        "mcp__slack__slack_update_message"]
    zebra = lines.index("query: zebra")
    # Only the never-empty ranker answers a word no tool has: five tools in catalog order.
    expected = [n for n, _ in Inspector(load_source(path)).bridge(parse_config({}), variant_options(
        "anthropic-bm25")).index.search("zebra", 5)]
    assert len(expected) == 5
    # ... and says so above the table, as search and explain do.
    assert lines[zebra + 1] == f"  note (anthropic-bm25): {FILLER_NOTE}"
    assert [re.split(r"\s{2,}", line.strip()) for line in lines[zebra + 4:]] == [
        ["1", EMPTY_RESULT, expected[0], EMPTY_RESULT, EMPTY_RESULT],
        *([str(r), name] for r, name in enumerate(expected[1:], 2))]
    # A regex that cannot run safely is matched as literal text: the side-by-side view says it too.
    bad = run_cli("search", path, "-q", "slack[", "--side-by-side").stdout.splitlines()
    assert bad[1] == "query: slack["
    assert bad[2].startswith("  note (anthropic-regex): the query is not a regular expression that can be run safely")
    assert all(not line.startswith("  note (reference)") for line in bad)
    plain = run_cli("search", path, "-q", "zebra", "--variant", "anthropic-bm25").stdout.splitlines()
    assert plain[1:3] == ["query: zebra", f"  note: {FILLER_NOTE}"]


def test_page_side_by_side_tab():
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.text_area(key="search_queries").set_value("send a slack message").run()
    at.selectbox(key="search_variant").set_value("evidence").run()
    assert not at.exception, at.exception
    tables = literal_tables(at)
    table = next(t for k, t in tables.items() if "side_by_side_1" in k)
    assert list(table.columns) == ["rank", "reference", "evidence", "anthropic-bm25", "anthropic-regex",
                                   "hermes-name-bonus"]
    ins = Inspector(load_source(ROOT / "sample_catalogs" / "team-workspace.yaml"))
    for column in ("reference", "evidence", "anthropic-bm25"):
        expected = [n for n, _ in ins.bridge(parse_config({}), variant_options(column)).index.search(
            "send a slack message", 5)]
        assert [x for x in table[column] if x] == expected
    # Each column's search is explained in the tab's own table, not in one long caption.
    help_table = next(t for k, t in tables.items() if k.endswith("search_side_by_side_help"))
    assert list(help_table["search"]) == list(table.columns[1:])
    assert list(help_table["what it does"]) == [VARIANT_HELP[n] for n in table.columns[1:]]
    intro = next(c.value for c in at.caption if c.value.startswith("The names each search returns"))
    assert len(intro) < 200 and "anthropic-bm25" not in intro  # before: every ranker's help in one paragraph
    # A query only the never-empty ranker answers: the tab says its five names are filler.
    at.text_area(key="search_queries").set_value("zebra").run()
    assert not at.exception, at.exception
    assert f"anthropic-bm25: {FILLER_NOTE}" in [c.value for c in at.caption]
    table = next(t for k, t in literal_tables(at).items() if "side_by_side_1" in k)
    assert list(table.iloc[0]) == ["1", EMPTY_RESULT, EMPTY_RESULT, table["anthropic-bm25"][0], EMPTY_RESULT, EMPTY_RESULT]
    assert list(table["reference"][1:]) == [""] * 4


@pytest.mark.parametrize("variant, heading", [("anthropic-regex", "score (2 = name match, 1 = text match)"),
                                               ("hermes-name-bonus", "score (BM25 + name bonus)"),
                                               ("reference", "score (BM25)")])
def test_search_page_score_heading_says_what_the_number_is(variant, heading):
    """The Search page's score column is headed by what the variant's number is (the regex
    variant's 2 and 1 are not BM25 scores), and holds the scores ``toolsearch search`` prints."""
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.text_area(key="search_queries").set_value("channel|message").run()
    at.selectbox(key="search_variant").set_value(variant).run()
    assert not at.exception, at.exception
    table = next(t for k, t in literal_tables(at).items() if k.endswith("search_results_1"))
    assert heading in table.columns and (heading == "score (BM25)" or "score (BM25)" not in table.columns)
    cli = run_cli("search", ROOT / "sample_catalogs" / "team-workspace.yaml", "-q", "channel|message",
                  "--variant", variant)
    printed = [line.split("[", 1)[1].split("]", 1)[0] for line in cli.stdout.splitlines() if line.startswith("  ")
               and "[" in line and line.strip()[:1].isdigit()]
    assert list(table[heading]) == printed
    if variant == "anthropic-regex":  # no terms, gate or BM25 to explain: no full explanation
        assert not [e for e in at.expander if e.label.startswith("Full explanation")]
        return
    at.session_state["explain_1_open"] = True  # as a click on its expander does
    at.run()
    panel = next(e for e in at.expander if e.label == "Full explanation of query 1")
    candidates = next(t for t in literal_tables(panel).values() if "reason" in t.columns)
    assert heading in candidates.columns
    assert list(candidates[heading])[:len(printed)] == printed


def test_page_regex_variant_explains_the_scan_not_bm25():
    """Under anthropic-regex the Search page says what the pattern did (a literal match of a
    pattern that does not compile) instead of the BM25 gate-term explanation, which does not apply."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/search.py").run()
    at.selectbox(key="search_variant").set_value("anthropic-regex").run()
    at.text_area(key="search_queries").set_value("create_issue(\nzebra\u200b").run()
    assert not at.exception, at.exception
    texts = [t.value for t in at.text]
    assert "Query 2: zebra⟨U+200B⟩" in texts
    assert "Why: the pattern matches no tool's name, description, parameter names or parameter descriptions" in texts
    assert not any(t.startswith("Why: Gate term") for t in texts)
    assert any("it was matched as literal text" in w.value
               for w in at.warning)


def test_docs_figures_are_the_benchmark_output():
    """docs/search-quality.md's rows for one set (out of sample and in sample) equal a fresh run of
    the code that wrote them, for every variant that needs no optional extra (the semantic row is
    written by the same code; its own tests load the model)."""
    from benchmarks.search_quality import set_figures
    from toolsearch.analysis.variants import DEFAULT_VARIANTS

    text, rows = set_figures("metatool", DEFAULT_VARIANTS)
    doc = (ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith(("| variant", "| ---"))]
    assert [line.split(" | ")[0] for line in table] == [f"| {name}" for name in DEFAULT_VARIANTS] == \
        [f"| {name}" for name, *_ in rows]
    section = doc.split("### `metatool`", 1)[1].split("### `bfcl-live`", 1)[0]
    for line in [*table, text.splitlines()[2]]:  # the rows and the counts line
        assert line in section, line


def test_docs_out_of_sample_rows_are_what_the_documented_eval_command_prints():
    """docs/search-quality.md says how to reproduce an out-of-sample row; that CLI command prints
    the same query recall@5, absent-requests-empty share ("nonsense queries empty" in eval) and
    MRR for every default variant on ``bfcl-live``."""
    doc = (ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8")
    assert ("`toolsearch eval benchmarks/data/SET/catalog.json --test\nbenchmarks/data/SET/test.json --tune "
            "benchmarks/data/SET/tune.json`") in doc
    section = doc.split("### `bfcl-live`: tuned on `tune.json`, scored on `test.json`", 1)[1].split("###", 1)[0]
    rows = {cells[0]: cells[1:4] for cells in (
        [c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| "))}
    base = DATA / "bfcl-live"
    result = run_cli("eval", base / "catalog.json", "--test", base / "test.json", "--tune", base / "tune.json",
                     "--json")
    assert result.returncode == 0, result.stderr
    variants = json.loads(result.stdout)["variants"]
    assert len(variants) == 11
    for v in variants:
        m = v["metrics"]
        assert rows[v["name"]] == [f"{m['query_recall_at_5']:.3f}", f"{m['nonsense_queries_empty']:.3f}",
                                   f"{m['mrr']:.3f}"], v["name"]


def test_docs_registered_and_pooled_rows_are_the_benchmark_output():
    """docs/search-quality.md's rows for the lexical variants' registered values and pooled tuning
    equal a fresh run (the semantic rows need the optional extra and are written by the same code)."""
    from benchmarks.search_quality import registered_and_pooled

    text = registered_and_pooled(("agent", "evidence"))
    rows = [line for line in text.splitlines() if line.startswith(("| agent |", "| evidence |"))]
    assert len(rows) == 4
    doc = (ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8")
    for row in rows:
        assert row in doc


def test_cli_search_side_by_side_json():
    path = ROOT / "sample_catalogs" / "team-workspace.yaml"
    result = run_cli("search", path, "-q", "send a slack message", "-q", "zebra", "--side-by-side", "--json",
                     "--variant", "evidence")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)  # one JSON document: the comparison, not the tool_search response
    assert "results" not in data
    assert [c["variant"] for c in data["columns"]] == ["reference", "evidence", *OTHER_HARNESSES]
    assert data["columns"][0]["label"] == "reference (what the model gets)"
    assert data["columns"][1]["label"] == "what-if: evidence"
    assert [q["query"] for q in data["queries"]] == ["send a slack message", "zebra"]
    ins = Inspector(load_source(path))
    for entry in data["queries"]:
        assert list(entry["matches"]) == [c["variant"] for c in data["columns"]]
        for name, matches in entry["matches"].items():
            expected = [n for n, _ in ins.bridge(parse_config({}), variant_options(name)).index.search(
                entry["query"], 5)]
            assert matches == expected, (entry["query"], name)
    assert data["queries"][1]["matches"]["reference"] == [] and len(data["queries"][1]["matches"]["anthropic-bm25"]) == 5
    assert data["queries"][0]["notes"] == {}
    assert data["queries"][1]["notes"] == {"anthropic-bm25": [FILLER_NOTE]}


def test_quality_page_progress_bar_moves_while_scoring(monkeypatch):
    """The Quality page's progress bar is updated during a long evaluation, per variant, up to
    "N of N tasks" (recorded from the page's real progress calls)."""
    from streamlit.delta_generator import DeltaGenerator
    from streamlit.testing.v1 import AppTest

    calls: list[tuple[float, str]] = []
    real = DeltaGenerator.progress

    def recording(self, value, text=None, **kwargs):
        calls.append((value, text or ""))
        return real(self, value, text=text, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "progress", recording)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    assert not at.exception, at.exception
    tasks = len(load_queries(ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml").tasks)
    calls.clear()
    # A selection no other test uses, so the evaluation is computed here, not taken from the cache.
    at.multiselect(key="quality_variants").set_value(["no-coverage", "unicode+name-substring"]).run()
    assert not at.exception, at.exception
    scoring = [(v, t) for v, t in calls if t.startswith("Scoring ")]
    for variant in ("no-coverage", "unicode+name-substring"):
        mine = [(v, t) for v, t in scoring if t.startswith(f"Scoring {variant}: ")]
        assert len(mine) >= 3, scoring  # several updates, not one at the end
        values = [v for v, _ in mine]
        assert values == sorted(values) and values[-1] == 1.0 and values[0] < 1.0
        assert mine[-1][1] == f"Scoring {variant}: {tasks:,} of {tasks:,} tasks"


def test_quality_page_labels_its_figures_and_explains_every_miss_cause_it_shows():
    """The Quality page says how its figures were obtained, in the words ``toolsearch eval`` prints
    for the same file (in sample: nothing tuned), and its legend names every cause in its misses
    table (anthropic-regex's ``pattern`` included); its figures are the CLI's."""
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.multiselect(key="quality_variants").set_value(["reference", "anthropic-regex"]).run()
    at.selectbox(key="quality_miss_variant").set_value("anthropic-regex").run()
    assert not at.exception, at.exception
    cli = run_cli("eval", ROOT / "sample_catalogs" / "team-workspace.yaml",
                  ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml",
                  "--variant", "reference", "--variant", "anthropic-regex", "--json")
    data = json.loads(cli.stdout)
    text = run_cli("eval", ROOT / "sample_catalogs" / "team-workspace.yaml",
                   ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml",
                   "--variant", "reference", "--variant", "anthropic-regex").stdout.splitlines()
    from toolsearch.ui.quality import PAGE_TUNING_HINT

    # The same line, up to the hint on what gives out-of-sample figures (each surface names its own controls).
    note = next(line for line in text if line.startswith("in sample: "))
    assert note.split(" (", 1)[0] + " (" + PAGE_TUNING_HINT + " gives figures that hold out of sample)" in [
        t.value for t in at.text]
    tables = literal_tables(at)
    counts = next(t for k, t in tables.items() if k.endswith("quality_counts"))
    shares = next(t for k, t in tables.items() if k.endswith("quality_metrics"))
    # One quantity, one name: every figure column of the page is headed as in eval's table.
    header = next(line for line in text if line.startswith("variant "))
    for column in [*shares.columns, *counts.columns]:
        assert column == "misses by cause" or f" {column} " in f" {header} ", (column, header)
    regex_row = counts[counts["variant"] == "anthropic-regex"].iloc[0]
    assert regex_row["misses by cause"].startswith("pattern ")
    assert regex_row["query recall@5"] == f"{data['variants'][1]['metrics']['query_recall_at_5']:.3f}"
    misses = next(t for k, t in tables.items() if k.endswith("quality_misses"))
    legend = next(c.value for c in at.caption if c.value.startswith("One row per expected tool"))
    for cause in set(misses["cause"]):
        assert f" {cause} (" in legend, (cause, legend)


def test_eval_says_which_variant_is_best_and_at_what_cost():
    """eval ends its figures with the variant the tuning rule picks (the highest query recall@5 among
    those with nonsense queries empty at least 0.950) and the highest query recall@5 of all with its
    empty share, led by in or out of sample; the target reads as the figures do (0.950, not 95%)."""
    result = run_cli("eval", ROOT / "sample_catalogs" / "team-workspace.yaml",
                     ROOT / "sample_catalogs" / "queries" / "team-workspace-agent.yaml")
    assert result.returncode == 0, result.stderr
    assert ("in sample, best by the tuning rule (the highest query recall@5 among variants with nonsense queries "
            "empty at least 0.950): agent, 0.753 query recall@5 with 0.950 empty; the highest query recall@5 "
            "of all: anthropic-bm25, 0.870, with 0.000 of nonsense queries empty") in result.stdout.splitlines()


def test_readme_figures_are_the_docs_out_of_sample_figures():
    """README's search-quality block gives, per variant and set, the out-of-sample recall@5 and
    share of absent-capability requests left empty of docs/search-quality.md's tables (one run
    writes both), its target lines and its eval-speed paragraph. That share is headed with the
    name `toolsearch eval` and the Quality page give it (it was "absent empty" there)."""
    from benchmarks.search_quality import README_BEGIN, README_END, SETS
    from toolsearch.analysis.evaluation import NONSENSE_QUERIES_EMPTY

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    doc = (ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8")
    block = readme.split(README_BEGIN)[1].split(README_END)[0]
    rows = [line.strip("|").split("|") for line in block.splitlines() if line.startswith("| ") and "---" not in line]
    header, body = [c.strip() for c in rows[0]], rows[1:]
    assert header == ["variant (out of sample: tuned on tune.json, scored on test.json)"] + [
        f"`{s}` {what}" for s in SETS for what in ("query recall@5", NONSENSE_QUERIES_EMPTY.label)]
    assert NONSENSE_QUERIES_EMPTY.label == "nonsense queries empty"
    assert "absent empty" not in block
    assert len(body) >= 12
    for name in SETS:
        section = doc.split(f"### `{name}`: tuned on `tune.json`, scored on `test.json`")[1].split("###")[0]
        doc_rows = {c[0].strip(): [x.strip() for x in c[1:]] for c in
                    (line.strip("|").split("|") for line in section.splitlines() if line.startswith("| "))}
        i = 1 + 2 * SETS.index(name)
        for cells in body:
            variant = cells[0].strip()
            assert [c.strip() for c in cells[i:i + 2]] == doc_rows[variant][:2], (name, variant)
    for line in block.splitlines():
        if line.startswith("* `") or line.startswith("`toolsearch eval` with"):
            assert line in doc, line
    assert "`toolsearch eval` with" in block


def test_docs_target_lines_read_as_the_tables_do():
    """The target and its verdict per set, in docs/search-quality.md and README, are what the
    generator writes from the docs' own out-of-sample tables, and state the target in the tables'
    form (nonsense queries empty at least 0.950, query recall@5 at least 0.700), not as a percentage
    beside figures written 0.950."""
    from benchmarks.search_quality import (NO_TOOL_HEADING, NO_TOOL_TEST, README_BEGIN, README_END, SETS,
                                           _target_line, target_sentence)

    doc = (ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split(README_BEGIN)[1].split(README_END)[0]
    summary = []
    for name in SETS:
        section = doc.split(f"### `{name}`: tuned on `tune.json`, scored on `test.json`")[1].split("###")[0]
        table = [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("| ")]
        head = table[0]
        recall, empty = head.index("query recall@5 (out of sample)"), head.index("nonsense queries empty (out of sample)")
        no_tool = head.index(NO_TOOL_HEADING) if NO_TOOL_HEADING in head else None
        rows = [(c[0], float(c[recall]), float(c[empty]), None if no_tool is None else float(c[no_tool]))
                for c in table[2:]]
        summary.append(f"* `{name}` (test split): " + _target_line(rows, 2, "nonsense queries empty"))
        if no_tool is not None:
            summary.append(f"  * with `{NO_TOOL_TEST}` (requests that need no tool, by MetaTool's labels) as the "
                           "absent requests, the same tuned parameters: "
                           + _target_line([r for r in rows if r[3] is not None], 3, "needs-no-tool requests empty"))
    meaning = "nonsense queries empty: the share of absent-capability requests that come back empty"
    for text, where in ((doc, f"on held-out data ({meaning})."), (readme, f"out of sample ({meaning}):")):
        target = target_sentence(where)
        assert target.startswith("Target: query recall@5 at least 0.700 with nonsense queries empty at least 0.950, ")
        assert "\n".join([target, "", *summary]) in text
        assert "95%" not in text and "95 %" not in text


def test_quality_page_scores_by_folds_as_eval_folds_does():
    """The Quality page's "tuned by folds" gives eval --folds K's figures, protocol line and tuned
    parameters per fold; more folds than the file has groups is the same clear error, not a crash."""
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.multiselect(key="quality_variants").set_value(["reference", "evidence"]).run()
    # Registered values: the in-sample line names the page's own choices, not the CLI's flags.
    said = [t.value for t in at.text if t.value.startswith("in sample: registered parameters")]
    assert said and 'choosing "tuned by folds" or "tuned on a tuning file" under Parameters' in said[0], said
    assert "--folds" not in said[0] and "--tune" not in said[0]
    # The figures are headed in sample, and the chart (often read alone) says it on its axis.
    assert at.subheader[0].value == "Figures in sample (registered parameters)"
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert chart["layout"]["xaxis"]["title"]["text"] == "share or MRR (0 to 1), in sample (registered parameters)"
    at.radio(key="quality_protocol").set_value("tuned by folds (out of sample)").run()
    at.number_input(key="quality_folds").set_value(3).run()
    assert not at.exception, at.exception
    assert at.subheader[0].value == "Figures out of sample (tuned by 3 folds)"
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert chart["layout"]["xaxis"]["title"]["text"] == "share or MRR (0 to 1), out of sample (tuned by 3 folds)"
    args = ("eval", ROOT / "sample_catalogs" / "team-workspace.yaml",
            ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml", "--variant", "reference",
            "--variant", "evidence", "--folds", "3")
    text = run_cli(*args).stdout.splitlines()
    data = json.loads(run_cli(*args, "--json").stdout)
    start = next(i for i, line in enumerate(text) if line.startswith("out of sample: 3-fold"))
    cli_lines = [text[start]] + [line.strip() for line in text[start + 1:] if line.startswith("  tuned ")]
    assert len(cli_lines) == 4  # the protocol line and evidence's three folds
    assert "\n".join(cli_lines) in [t.value for t in at.text]
    assert not any("Tuned by folds with" in w.value for w in at.warning)  # the sample has abstention tests
    counts = next(t for k, t in literal_tables(at).items() if k.endswith("quality_counts"))
    row = counts[counts["variant"] == "evidence"].iloc[0]
    assert row["query recall@5"] == f"{data['variants'][1]['metrics']['query_recall_at_5']:.3f}"
    # Which variant is best on these figures, by the tuning rule, in the page's format (the CLI's line).
    metrics = {v["name"]: v["metrics"] for v in data["variants"]}
    cli_verdict = next(line for line in text if line.startswith("out of sample, best by the tuning rule"))
    assert cli_verdict.startswith("out of sample, best by the tuning rule (the highest query recall@5 among "
                                  "variants with nonsense queries empty at least 0.950): ")
    best = "evidence" if metrics["evidence"]["nonsense_queries_empty"] >= 0.95 and \
        metrics["evidence"]["query_recall_at_5"] > metrics["reference"]["query_recall_at_5"] else "reference"
    page_verdict = next(t.value for t in at.text if t.value.startswith("out of sample, best by the tuning rule"))
    assert page_verdict == cli_verdict  # one line, one format: 0.938 on both
    assert page_verdict.split(": ", 1)[1].startswith(
        f"{best}, {metrics[best]['query_recall_at_5']:.3f} query recall@5 with "
        f"{metrics[best]['nonsense_queries_empty']:.3f} empty"), page_verdict
    at.number_input(key="quality_folds").set_value(19).run()  # 18 task groups
    assert not at.exception, at.exception
    assert any("19 folds, but the file has 18 task groups" in e.value for e in at.error)


def _tuning_file_for_team_workspace() -> dict:
    """Tasks of the shipped agent-style file that share no id and no expected tools with the shipped
    team-workspace.yaml, under ids of their own: a tuning file the page and eval --tune accept."""
    test = load_queries(ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml")
    agent = load_queries(ROOT / "sample_catalogs" / "queries" / "team-workspace-agent.yaml")
    taken = {t.group_key for t in test.tasks}
    tasks = [{"id": f"tune-{t.id}", "queries": list(t.queries), "expected": list(t.expected)}
             for t in agent.tasks if t.abstention or t.group_key not in taken]
    assert any(t["expected"] for t in tasks) and any(not t["expected"] for t in tasks)
    return {"name": "tuning tasks", "tool_names": "prefixed", "tasks": tasks}


def test_quality_page_tunes_on_a_tuning_file_as_eval_tune_does(tmp_path):
    """The Quality page's "tuned on a tuning file" gives eval --tune FILE --test FILE's protocol
    line, tuned values and figures; a tuning file that shares a task with the scored one is the
    same refusal as the CLI's, and one without abstention tests is warned about, as the CLI does."""
    from streamlit.testing.v1 import AppTest

    from conftest import literal_tables
    from toolsearch.ui.quality import ON_TUNING_FILE, UPLOAD

    tuning = _tuning_file_for_team_workspace()
    tune_path = tmp_path / "tune.yaml"
    write_yaml(tune_path, tuning)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.multiselect(key="quality_variants").set_value(["reference", "evidence"]).run()
    at.radio(key="quality_protocol").set_value(ON_TUNING_FILE).run()
    assert not at.exception, at.exception
    assert any("Choose or upload the tuning query file" in i.value for i in at.info)
    assert at.selectbox(key="quality_tune_file:team-workspace").value == UPLOAD
    at.file_uploader(key="quality_tune_upload").set_value(("tune.yaml", tune_path.read_bytes(), "application/x-yaml")).run()
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    args = ("eval", ROOT / "sample_catalogs" / "team-workspace.yaml", "--test",
            ROOT / "sample_catalogs" / "queries" / "team-workspace.yaml", "--tune", tune_path,
            "--variant", "reference", "--variant", "evidence")
    text = run_cli(*args).stdout.splitlines()
    data = json.loads(run_cli(*args, "--json").stdout)
    start = next(i for i, line in enumerate(text) if line.startswith("out of sample: parameters tuned on 'tuning tasks'"))
    cli_lines = [text[start]] + [line.strip() for line in text[start + 1:] if line.startswith("  tuned ")]
    assert len(cli_lines) == 2, cli_lines  # the protocol line and evidence's tuned values
    assert "\n".join(cli_lines) in [t.value for t in at.text]
    counts = next(t for k, t in literal_tables(at).items() if k.endswith("quality_counts"))
    row = counts[counts["variant"] == "evidence"].iloc[0]
    assert row["query recall@5"] == f"{data['variants'][1]['metrics']['query_recall_at_5']:.3f}"
    assert not at.warning, [w.value for w in at.warning]

    # Recall only: the page warns as eval --tune does.
    recall_only = {**tuning, "tasks": [t for t in tuning["tasks"] if t["expected"]]}
    at.file_uploader(key="quality_tune_upload").set_value(
        ("recall.yaml", yaml.safe_dump(recall_only).encode(), "application/x-yaml")).run()
    assert not at.exception, at.exception
    assert any("Tuning file" in w.value and "tuned for recall alone" in w.value for w in at.warning), \
        [w.value for w in at.warning]

    # The scored file itself as the tuning file: refused with the CLI's words.
    at.selectbox(key="quality_tune_file:team-workspace").set_value("team-workspace.yaml").run()
    assert not at.exception, at.exception
    assert any("is also in the tuning file" in e.value for e in at.error), [e.value for e in at.error]
    # Named as the page names it, not by where the package lies on disk, in the page's terms.
    refusal = next(e.value for e in at.error if "is also in the tuning file" in e.value).replace("\\", "")
    assert refusal.startswith("team-workspace.yaml (shipped): task ") and str(ROOT) not in refusal, refusal
    assert "test tasks" not in refusal and "tuned on or scored, not both" in refusal
    assert not any(k.endswith("quality_counts") for k in literal_tables(at))


def test_quality_chart_gives_every_variant_its_own_color():
    # Before: the variants added after the first seven shared two spare colors by position, so
    # evidence and anthropic-regex were drawn in the same brown and anthropic-bm25 and
    # hermes-name-bonus in the same grey.
    from toolsearch.analysis import palette
    from toolsearch.analysis.variants import DEFAULT_VARIANTS, VARIANTS
    from toolsearch.ui.quality import COMBOS, metrics_figure

    own = [palette.VARIANT_COLORS[name].lower() for name in VARIANTS]  # semantic included
    assert len(set(own)) == len(own)
    assert not set(own) & {c.lower() for c in palette.EXTRA_VARIANT_COLORS}
    shown = [*DEFAULT_VARIANTS, *COMBOS]
    ev = evaluation.evaluate(CLOUD, parse_queries({"tasks": [
        {"id": "a", "queries": ["list accounts"], "expected": ["mcp__srv__get_accounts"]},
        {"id": "b", "queries": ["book a flight"], "expected": []}]}), shown, explain=False)
    colors = [trace.marker.color for trace in metrics_figure(ev).data]
    assert [trace.name for trace in metrics_figure(ev).data] == shown
    assert len(set(colors)) == len(shown)


def test_cli_eval_warns_when_the_tuning_file_holds_a_test_query(tmp_path):
    """Task ids and groups differ, so the overlap check passes, but the tuning file holds the
    test's very query (case and spacing aside): eval says so instead of calling the figure out of
    sample without a word. Before: no warning at all."""
    cat = _cloud_file(tmp_path)
    tune_file = write_yaml(tmp_path / "tune.yaml", {"tasks": [
        {"id": "t1", "query": "List  ACCOUNTS", "expected": ["mcp__srv__get_accounts_rules_lists"], "group": "x"},
        {"id": "t2", "query": "order a pizza", "expected": []}]})
    test_file = write_yaml(tmp_path / "test.yaml", {"tasks": [
        {"id": "s1", "query": "list accounts", "expected": ["mcp__srv__get_accounts"], "group": "y"},
        {"id": "s2", "query": "post a message", "expected": ["mcp__srv__post_message"]}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", tune_file, "--variant", "reference")
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {test_file}: 1 query of the scored tasks is also in the tuning file (under "
            "another task), so tuning saw it and its figures are not out of sample: 'list accounts'\n") in result.stderr
    disjoint = write_yaml(tmp_path / "other.yaml", {"tasks": [
        {"id": "s3", "query": "show my accounts", "expected": ["mcp__srv__get_accounts"], "group": "y"}]})
    assert "not out of sample" not in run_cli("eval", cat, "--test", disjoint, "--tune", tune_file,
                                              "--variant", "reference").stderr


def test_eval_warns_when_the_tuning_file_uses_another_tool_naming(tmp_path):
    """The tuning file's own ``tool_names`` is checked as the scored file's is (before: only the
    scored file's): its expected names would match no tool, and tuning would chase them."""
    cat = _cloud_file(tmp_path)
    tune_file = write_yaml(tmp_path / "tune.yaml", {"tool_names": "as-is", "tasks": [
        {"id": "t1", "query": "list cloudflare tunnels", "expected": ["get_accounts_cfd_tunnel"]},
        {"id": "t2", "query": "order a pizza", "expected": []}]})
    test_file = write_yaml(tmp_path / "test.yaml", {"tool_names": "prefixed", "tasks": [
        {"id": "s1", "query": "list accounts", "expected": ["mcp__srv__get_accounts"]}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", tune_file, "--variant", "evidence")
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {tune_file}: its expected names use tool naming 'as-is', but the catalog's "
            "tools are registered 'prefixed' (--tool-names as-is reads the catalog that way)\n") in result.stderr
    assert f"{test_file}: its expected names" not in result.stderr
    flipped = run_cli("eval", cat, "--test", test_file, "--tune", tune_file, "--variant", "evidence",
                      "--tool-names", "as-is")
    assert f"warning: {test_file}: its expected names use tool naming 'prefixed'" in flipped.stderr
    assert f"{tune_file}: its expected names" not in flipped.stderr


def test_folds_say_which_queries_another_fold_also_holds():
    tasks = parse_queries({"tasks": [
        {"id": f"t{i}", "query": "same words" if i in (0, 3) else f"query {i}", "expected": [], "group": f"g{i}"}
        for i in range(6)]}).tasks
    assert [[t.id for t in part] for part in split_folds(tasks, 3)] == [["t0", "t1", "t2"], ["t3"], ["t4", "t5"]]
    assert evaluation.seen_across_folds(tasks, 3) == (
        "1 query is also in another fold (under a task of another group), so the parameters that score it were "
        "tuned on it and its figures are not out of sample: 'same words'")
    assert evaluation.seen_across_folds([t for t in tasks if t.id != "t3"], 3) == ""
    assert evaluation.seen_in_tuning(tasks[:1], tasks[3:4]).startswith("1 query of the scored tasks")
    assert evaluation.seen_in_tuning(tasks[:1], tasks[1:3]) == ""


@pytest.mark.parametrize("name", ["evidence", "hermes-name-bonus", "semantic"])
def test_search_quality_doc_names_every_parameter_tuning_may_set(name):
    """The figures tables print tuned values such as ``min_score_ratio=1.5`` and
    ``field_weights=(2, 1, 1)``; the variant's description on the same page names each of them
    and what it does. Before: the evidence bullet named none (and not the score-ratio rule at
    all), the hermes-name-bonus bullet not its bonus."""
    from toolsearch.analysis.variants import TUNABLE

    text = (ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8")
    start = text.index(f"* `{name}` (what-if")
    bullet = text[start:text.find("\n* ", start + 1)]
    assert [p for p in TUNABLE[name] if f"`{p}`" not in bullet] == []


def test_reproduction_commands_say_how_to_get_the_semantic_row():
    """README and docs/search-quality.md give one command to reproduce an out-of-sample row, and
    both tables have a ``semantic`` row, which that command alone never prints (it is not a
    default variant): the sentence says to add ``--variant semantic``. Before: it did not."""
    from toolsearch.analysis.variants import DEFAULT_VARIANTS

    assert "semantic" not in DEFAULT_VARIANTS
    for path in (ROOT / "README.md", ROOT / "docs" / "search-quality.md"):
        text = " ".join((path.read_text(encoding="utf-8")).split())
        assert "| semantic |" in text
        command = text.index("--tune benchmarks/data/SET/tune.json`")
        assert "`--variant semantic`" in text[command:command + 200], path.name


def test_folds_progress_says_when_a_variant_is_being_tuned():
    """Tuning costs more than scoring (one search per query and ranking setting, then the whole
    threshold grid); the progress callback says so before, during (the share of those searches
    run, in tasks) and after the one tuning pass every fold shares, as --tune does, instead of
    standing still on the last scored count or on 0."""
    tasks = parse_queries({"tasks": [
        {"id": f"t{i}", "query": q, "expected": e, "group": f"g{i}"} for i, (q, e) in enumerate([
            ("list accounts", ["mcp__srv__get_accounts"]), ("send an email", ["mcp__srv__send_email"]),
            ("weather in a city", ["mcp__srv__weather_now"]), ("order a pizza", []),
            ("post a message", ["mcp__srv__post_message"]), ("book a flight", [])])]})
    calls: list[tuple[int, int, str]] = []
    evaluate_folds(CLOUD, tasks, 2, ["reference", "evidence"], progress=lambda d, t, l: calls.append((d, t, l)))
    tuning = [c for c in calls if c[2].startswith("tuning ")]
    assert tuning[0] == (0, 6, "tuning evidence (2 folds) on") and tuning[-1] == (6, 6, "tuning evidence (2 folds) on")
    # Three name weights × 6 tasks = 18 searches, one call each: every third is one task further.
    assert [d for d, _, _ in tuning[1:-1]] == [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5]
    assert {label for _, _, label in tuning} == {"tuning evidence (2 folds) on"}
    assert not any(c[2].startswith("tuning reference") for c in calls)  # nothing to tune
    assert calls[-1] == (6, 6, "evidence")


@pytest.mark.parametrize("variant", ["evidence", "agent"])
def test_folds_tune_each_fold_as_tuning_on_the_other_folds_alone_does(variant):
    """Folds share one search pass per ranking setting; each fold's parameters are still exactly
    what tune() picks on the other folds' tasks alone (the search of a query does not depend on
    which tasks are tuned on). On a third-party set, where the folds pick different values."""
    data = ROOT / "benchmarks" / "data" / "bfcl-live"
    ins = Inspector(load_source(data / "catalog.json"))
    queries = load_queries(data / "tune.json")
    ev = evaluate_folds(ins, queries, 3, [variant], explain=False)
    parts = split_folds(queries.tasks, 3)
    for f, params in enumerate(ev.variants[0].fold_params):
        rest = [t for g, part in enumerate(parts) if g != f for t in part]
        assert params == evaluation.tune(ins, rest, variant), f
    assert len({tuple(sorted(p.items())) for p in ev.variants[0].fold_params}) >= 1


def test_hermes_name_bonus_counts_the_tool_s_own_name_words_not_the_server_s():
    """The bonus is ``bonus × top × c`` with ``c`` the share of the words of the tool's name
    without ``mcp__server__`` that the query holds (as documented). Before: the server's name
    counted as a name word, so ``create issue`` gave ``linear__create_issue`` c = 2/3 and
    ``linear__create_issue_label`` 2/4."""
    ins = inspector([tool("create_issue_label", "Create an issue label."),
                     tool("create_issue", "Create an issue in a team. The team decides the workflow."),
                     tool("list_teams", "List the teams.")], name="linear")
    config = parse_config({})
    plain = dict(ins.bridge(config, variant_options("reference")).index.search("create issue", 5))
    bonus = dict(ins.bridge(config, variant_options("hermes-name-bonus")).index.search("create issue", 5))
    top = max(plain.values())
    assert bonus["mcp__linear__create_issue"] == pytest.approx(plain["mcp__linear__create_issue"] + 0.5 * top * 1.0)
    assert bonus["mcp__linear__create_issue_label"] == pytest.approx(
        plain["mcp__linear__create_issue_label"] + 0.5 * top * 2 / 3)


def test_evidence_drops_the_pieces_of_english_contractions():
    """ "I'm", "haven't", "we'll" are cut into i m, haven t, we ll by the tokenizer; those pieces
    are stop words to the variants that drop stop words, so they never count as query words
    (before: "m" and "t" stood in the evidence thresholds' count of distinct words). "won" stays:
    it is a currency too."""
    ins = inspector([tool("convert_currency", "Convert an amount of money to won, dollars or euros."),
                     tool("list_files", "List the files in a folder.")])
    index = ins.bridge(parse_config({}), variant_options("evidence")).index
    explained = index.explain("I'm sure I haven't listed the files we'll need", 5)
    assert {term for term, why in explained.ignored if why == "stop word"} >= {"m", "t", "ll", "haven"}
    assert [t.stem for t in explained.terms] == ["sure", "list", "file"]
    assert "won" in [t.stem for t in index.explain("convert dollars to won", 5).terms]
    assert [n for n, _ in index.search("I'm sure I haven't listed the files", 5)] == ["mcp__srv__list_files"]


def test_quality_page_names_the_files_it_was_given():
    """The same tasks uploaded again under another name: the protocol line and the downloaded
    evaluation name the new tuning file, as the page's warnings do. Before: the memo keyed on the
    tasks alone, so the line still said "tuned on 'first'" beside a warning about 'second'."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.ui.quality import ON_TUNING_FILE

    data = yaml.safe_dump({"tasks": [{"id": "z1", "query": "order a pizza", "expected": []},
                                     {"id": "z2", "query": "fly to mars", "expected": ["mcp__nope__x"]}]}).encode()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.multiselect(key="quality_variants").set_value(["evidence"]).run()
    at.radio(key="quality_protocol").set_value(ON_TUNING_FILE).run()
    at.file_uploader(key="quality_tune_upload").set_value(("first.yaml", data, "application/x-yaml")).run()
    assert any("tuned on 'first'" in t.value for t in at.text)
    at.file_uploader(key="quality_tune_upload").set_value(("second.yaml", data, "application/x-yaml")).run()
    assert not at.exception, at.exception
    assert any("Tuning file 'second':" in w.value for w in at.warning)
    assert any("tuned on 'second'" in t.value for t in at.text), [t.value for t in at.text]
    assert not any("'first'" in t.value for t in at.text)
    # Two files on the page: the protocol line names the scored one (before: "figures are on this
    # file"), and the warning quotes the tuning file's name as that line does (before: "Tuning file
    # tuning tasks: no abstention task").
    named = yaml.safe_dump({"name": "tuning tasks", "tasks": [
        {"id": "z2", "query": "fly to mars", "expected": ["mcp__nope__x"]}]}).encode()
    at.file_uploader(key="quality_tune_upload").set_value(("t.yaml", named, "application/x-yaml")).run()
    assert not at.exception, at.exception
    assert any(t.value.startswith("out of sample: parameters tuned on 'tuning tasks' only; figures are on "
                                  "'Team workspace, labeled queries'\n") for t in at.text), [t.value for t in at.text]
    assert any(w.value.startswith("Tuning file 'tuning tasks': no abstention task") for w in at.warning), \
        [w.value for w in at.warning]
    # The tuning file's tool naming is checked as the scored file's is, with the CLI's sentence.
    as_is = yaml.safe_dump({"name": "bare names", "tool_names": "as-is", "tasks": [
        {"id": "z3", "query": "order a pizza", "expected": []}]}).encode()
    at.file_uploader(key="quality_tune_upload").set_value(("b.yaml", as_is, "application/x-yaml")).run()
    assert not at.exception, at.exception
    said = [w.value.replace("\\", "") for w in at.warning if "tool naming" in w.value]
    assert said == ["Tuning file 'bare names': its expected names use tool naming 'as-is', but the catalog's tools "
                    "are registered 'prefixed'; switch 'Tool names' in the sidebar."], said


FOLD_ONE_SIDED_TASKS = {"tasks": [  # 2 folds: d alone in fold 1; a, b, c in fold 2 (tuned on d alone)
    {"id": "a", "query": "send a chat message", "expected": ["mcp__srv__send_message"]},
    {"id": "b", "query": "list the files", "expected": ["mcp__srv__list_files"]},
    {"id": "c", "query": "order a pizza", "expected": []},
    {"id": "d", "query": "post to the channel", "expected": ["mcp__srv__send_message"], "group": "g2"}]}


def test_folds_say_which_fold_is_tuned_on_one_kind_of_task(tmp_path):
    """The file holds both kinds of task, but the only abstention test lands in fold 2, so fold 2 is
    tuned (on fold 1) for recall alone: eval --folds and the Quality page say so. Before: nothing was
    said, since only the whole file was checked."""
    from streamlit.testing.v1 import AppTest

    from toolsearch.ui.quality import BY_FOLDS, UPLOAD
    from toolsearch.ui.text import md_escape

    tasks = evaluation.parse_queries(FOLD_ONE_SIDED_TASKS).tasks
    assert [[t.id for t in part] for part in evaluation.split_folds(tasks, 2)] == [["d"], ["a", "b", "c"]]
    said = ("fold 2 of 2 is tuned on the other fold, which holds no abstention task (expected: []), so its "
            "parameters were tuned for recall alone")
    assert evaluation.one_sided_folds(tasks, 2) == said
    assert "fold 1 of 3 is tuned on the other folds, which hold nothing but abstention tests" in \
        evaluation.one_sided_folds(tasks, 3)  # folds: a b d | c | (none: not named)
    assert "fold 3" not in evaluation.one_sided_folds(tasks, 3)
    assert evaluation.one_sided_folds(tasks[:2], 2) == ""  # the whole file is one-sided: said once, by one_sided_tuning
    cat, _ = _small_cli_files(tmp_path)
    queries = write_yaml(tmp_path / "q.yaml", FOLD_ONE_SIDED_TASKS)
    result = run_cli("eval", cat, queries, "--folds", "2", "--variant", "evidence")
    assert result.returncode == 0, result.stderr
    assert f"toolsearch: warning: {queries}: {said}\n" in result.stderr

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.selectbox(key="quality_file:team-workspace").set_value(UPLOAD).run()
    at.file_uploader(key="quality_upload").set_value(
        ("q.yaml", yaml.safe_dump(FOLD_ONE_SIDED_TASKS).encode(), "application/x-yaml")).run()
    at.multiselect(key="quality_variants").set_value(["evidence"]).run()
    at.radio(key="quality_protocol").set_value(BY_FOLDS).run()
    at.number_input(key="quality_folds").set_value(2).run()
    assert not at.exception, at.exception
    assert any(w.value == f"Tuned by folds: {md_escape(said)}." for w in at.warning), [w.value for w in at.warning]


def test_folds_on_a_file_of_one_task_group_asks_for_groups_not_for_one_fold(tmp_path):
    """A file whose tasks all share one group cannot be split (folds need 2 or more): the refusal
    said "give at most 1 folds", which --folds refuses in turn. It says what would work instead."""
    cat = _cloud_file(tmp_path)
    one_group = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"], "group": "g"},
        {"id": "b", "query": "order a pizza", "expected": [], "group": "g"}]})
    result = run_cli("eval", cat, one_group, "--folds", "2", "--variant", "reference")
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert "q.yaml: 2 folds, but the file has 1 task group, and folds need at least 2" in result.stderr
    assert "at most 1 folds" not in result.stderr and "more groups" in result.stderr
    with pytest.raises(QueryFileError, match="folds need at least 2"):
        evaluate_folds(CLOUD, load_queries(one_group), 3, ["reference"])


def test_cli_eval_warning_that_names_some_unknown_names_says_how_many_more(tmp_path):
    """The stderr warning spells out five unknown expected names; with seven it read as if those
    five were all of them. It now ends "and 2 more", in the scored file's and the tuning file's."""
    cat = _cloud_file(tmp_path)
    names = [f"mcp__other__tool_{i}" for i in range(7)]
    scored = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": f"t{i}", "query": f"do thing {i}", "expected": [n]} for i, n in enumerate(names)]})
    result = run_cli("eval", cat, scored, "--variant", "reference")
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {scored}: 7 expected names not among the deferred tools of this catalog: "
            + ", ".join(names[:5]) + " and 2 more\n") in result.stderr
    tune_file = write_yaml(tmp_path / "tune.yaml", {"tasks": [
        *({"id": f"u{i}", "query": f"make thing {i}", "expected": [n]} for i, n in enumerate(names[:6])),
        {"id": "pizza", "query": "order a pizza", "expected": []}]})
    test_file = write_yaml(tmp_path / "test.yaml", {"tasks": [
        {"id": "c", "query": "post a message", "expected": ["mcp__srv__post_message"]}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", tune_file, "--variant", "evidence")
    assert result.returncode == 0, result.stderr
    assert ("can never be found): " + ", ".join(names[:5]) + " and 1 more\n") in result.stderr
    # Five or fewer: the list is whole, nothing added.
    assert evaluation.first_names(names[:5]) == ", ".join(names[:5])


def test_cli_eval_tune_test_names_an_id_two_different_tasks_share_as_such(tmp_path):
    """Two hand-written files that both number their tasks from t1: the refusal said "task 't1'
    is also in the tuning file" of a task that is not there. It now says the id names a different
    task there, the first such id in the scored file's order; the same task in both files keeps
    the old words."""
    cat = _cloud_file(tmp_path)
    tune_file = write_yaml(tmp_path / "tune.yaml", {"tasks": [
        {"id": "t2", "query": "order a pizza", "expected": []},
        {"id": "t1", "query": "list accounts", "expected": ["mcp__srv__get_accounts"]}]})
    test_file = write_yaml(tmp_path / "test.yaml", {"tasks": [
        {"id": "t1", "query": "post a message", "expected": ["mcp__srv__post_message"]},
        {"id": "t2", "query": "file my tax return", "expected": []}]})
    result = run_cli("eval", cat, "--test", test_file, "--tune", tune_file, "--variant", "evidence")
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert (f"toolsearch: error: {test_file}: the task id 't1' also names a different task in the tuning file "
            f"{tune_file}; ") in result.stderr and "other ids" in result.stderr
    same = run_cli("eval", cat, "--test", test_file, "--tune", test_file, "--variant", "evidence")
    assert same.returncode == 2 and (f"{test_file}: task 't1' is also in the tuning file {test_file}; a task is "
                                     "either tuned on or scored, not both") in same.stderr


def test_catalog_order_of_the_filler_is_the_tool_list_s_by_name_as_the_docs_say():
    """anthropic-bm25's filler is "the first tools by wire name": the session's tool list, by
    wire name, not the order of the file (a user reading the catalog file's first tools would look
    for them in vain). search-quality.md says which order that is."""
    catalog = load_text(yaml.safe_dump({"servers": [
        {"name": "shop", "tools": [{"name": n, "description": f"{n} things", "inputSchema": {"type": "object"}}
                                   for n in ("zeta", "create_order", "alpha")]},
        {"name": "mail", "tools": [{"name": "send_email", "description": "send", "inputSchema": {"type": "object"}}]}]}),
        "c.yaml")
    ins = Inspector(catalog)
    filler = [n for n, _ in ins.bridge(parse_config({}), variant_options("anthropic-bm25")).index.search("zebra", 5)]
    assert filler == ["mcp__mail__send_email", "mcp__shop__alpha", "mcp__shop__create_order", "mcp__shop__zeta"]
    doc = " ".join((ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8").split())
    assert ("Wire-name order, here and below, is the order of the session's tool list (`mcp__mail__…` before "
            "`mcp__shop__…`") in doc


def test_cli_eval_says_when_its_limit_is_clamped_as_search_does(tmp_path):
    """search --limit says when the bridge reads the limit as another number; eval clamped it the
    same way without a word (the header's "limit 25" was the only trace of --limit 1000)."""
    cat = _cloud_file(tmp_path)
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "a", "query": "list accounts", "expected": ["mcp__srv__get_accounts"]}]})
    result = run_cli("eval", cat, queries, "--limit", "1000", "--variant", "reference")
    assert result.returncode == 0, result.stderr
    assert ("toolsearch: note: --limit 1,000 is read as 25, as the bridge reads the model's limit: clamped to "
            "1..25 (max_search_limit)\n") in result.stderr
    assert "limit 25" in result.stdout.splitlines()[0]
    kept = run_cli("eval", cat, queries, "--limit", "7", "--variant", "reference")
    assert kept.returncode == 0 and "--limit" not in kept.stderr, kept.stderr


def test_shared_query_warnings_name_more_than_the_first():
    """'2 queries are … not out of sample: 'a'' read as if 'a' were the whole list."""
    tuning = parse_queries({"tasks": [{"id": f"u{i}", "query": f"words {i}", "expected": []} for i in range(7)]}).tasks
    scored = parse_queries({"tasks": [{"id": f"s{i}", "query": f"Words  {i}", "expected": []} for i in range(7)]}).tasks
    assert evaluation.seen_in_tuning(tuning, scored[:2]) == (
        "2 queries of the scored tasks are also in the tuning file (under another task), so tuning saw them and "
        "their figures are not out of sample: 'Words  0', 'Words  1'")
    assert evaluation.seen_in_tuning(tuning, scored).endswith(
        ": 'Words  0', 'Words  1', 'Words  2', 'Words  3', 'Words  4' and 2 more")
    tasks = parse_queries({"tasks": [
        {"id": f"t{i}", "query": "same words" if i in (0, 3) else "more words" if i in (1, 4) else f"query {i}",
         "expected": [], "group": f"g{i}"} for i in range(6)]}).tasks
    assert evaluation.seen_across_folds(tasks, 3).endswith("not out of sample: 'same words', 'more words'")


def test_search_json_says_on_stderr_what_the_text_output_says_under_a_query():
    """search --json kept stdout the response object and said nothing of a pattern matched as
    literal text or of anthropic-bm25's filler, which the text output and the Search page say."""
    catalog = "sample_catalogs/team-workspace.yaml"
    result = run_cli("search", catalog, "-q", "[", "-q", "issue", "--variant", "anthropic-regex", "--json")
    assert result.returncode == 0, result.stderr
    json.loads(result.stdout)
    notes = [line for line in result.stderr.splitlines() if line.startswith("toolsearch: note: query ")]
    assert notes == ["toolsearch: note: query 1 '[': the query is not a regular expression that can be run safely "
                     "(it does not compile, or its repeat counts multiply past 10,000); it was matched as literal text"]
    result = run_cli("search", catalog, "-q", "zzqq", "--variant", "anthropic-bm25", "--json")
    assert ("toolsearch: note: query 1 'zzqq': nothing matched, so this variant returns the first tools by wire name "
            "(never empty on purpose)") in result.stderr.splitlines()
    assert "note: query" not in run_cli("search", catalog, "-q", "zzqq", "--json").stderr

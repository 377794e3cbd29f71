"""Search-quality evaluation, catalog lint, their CLI and the "Search quality & lint" page.

The metric tests use a four-tool catalog whose documents all have five tokens, so every score tie
and every rank can be worked out by hand (see ``MINI``); the shipped query files are checked
against fixed numbers computed once and verified by hand on a few tasks.
"""

from __future__ import annotations

import argparse
import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pandas as pd
import pytest
import yaml
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables, run_cli, write_yaml
from toolsearch.ui import common
from toolsearch.cli import commands as cli, quality as cli_quality
from toolsearch.engine import constants as C
from toolsearch.engine.catalog import load_source, load_text
from toolsearch.engine.config import parse_config
from toolsearch.analysis.evaluation import (DEFAULT_VARIANTS, QueryFileError, VariantError, evaluate, load_queries,
                                   load_queries_text, parse_queries, task_cell, variant_options)
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.lint import RULES, lint, name_probe, probe_keywords
from toolsearch.analysis.variants import VARIANT_HELP
from toolsearch.engine.registration import clamp_tool_name
from toolsearch.engine.search import (SearchOptions, fallback_key, query_tokens, tokenize, tokenize_unicode,
                               unicode_query_tokens)

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "sample_catalogs"
QUERIES = SHIPPED / "queries"

OBJ = {"type": "object", "properties": {}}
# Every document is "shop <name> tool <two description words>": five tokens, so BM25 ties are
# exact and ties keep catalog order (wire names sorted: alpha, beta, delta, gamma).
MINI = {"name": "mini", "servers": [{"name": "shop", "tools": [
    {"name": "alpha_tool", "description": "widget gadget", "inputSchema": OBJ},
    {"name": "beta_tool", "description": "widget gizmo", "inputSchema": OBJ},
    {"name": "gamma_tool", "description": "widget doohickey", "inputSchema": OBJ},
    {"name": "delta_tool", "description": "sprocket gizmo", "inputSchema": OBJ},
]}]}
A, B, G, D = (f"mcp__shop__{n}_tool" for n in ("alpha", "beta", "gamma", "delta"))
MINI_TASKS = {"name": "mini tasks", "tool_names": "prefixed", "tasks": [
    # "widget": alpha, beta, gamma tie -> ranks 1, 2, 3.
    {"id": "t1", "queries": ["widget"], "expected": [G]},
    # "gizmo": beta 1, delta 2; "doohickey": gamma 1. Best ranks: delta 2, gamma 1.
    {"id": "t2", "queries": ["gizmo", "doohickey"], "expected": [D, G]},
    {"id": "t3", "query": "zebra", "expected": []},          # abstains correctly
    {"id": "t4", "queries": ["widget"], "expected": []},     # should abstain, does not
    # gate = gadget (df 1): only alpha is admitted; beta lacks the gate.
    {"id": "t5", "queries": ["gadget gizmo"], "expected": [B]},
    # 4 answerable terms -> coverage 2; gate = sprocket (first of the df-1 ties): delta covers 1.
    {"id": "t6", "queries": ["sprocket widget gadget doohickey"], "expected": [D]},
]}


@pytest.fixture
def mini(tmp_path) -> tuple[Inspector, Path]:
    catalog = write_yaml(tmp_path / "mini.yaml", MINI)
    return Inspector.from_files([catalog]), catalog


@pytest.fixture
def mini_queries(tmp_path) -> Path:
    return write_yaml(tmp_path / "mini-queries.yaml", MINI_TASKS)


def metrics(ev, variant):
    m = ev.variant(variant).metrics
    return (m.recall_at_1, m.recall_at_k, m.recall_at_limit, m.mrr, m.abstention_accuracy)


# --- metrics on hand-made cases ---------------------------------------------------------------

def test_reference_metrics_by_hand(mini, mini_queries):
    ins, _ = mini
    ev = evaluate(ins, load_queries(mini_queries))
    ref = ev.variant("reference")
    assert [t.ranks for t in ref.tasks] == [(3,), (2, 1), (), (), (None,), (None,)]
    assert [t.correct for t in ref.tasks] == [True, True, True, False, True, False]
    assert [t.matches for t in ref.tasks][:2] == [((A, B, G),), ((B, D), (G,))]
    # Positive tasks t1, t2, t5, t6: recall@1 0, 1/2, 0, 0; recall@5 1, 1, 0, 0; RR 1/3, 1, 0, 0.
    assert metrics(ev, "reference") == pytest.approx((1 / 8, 1 / 2, 1 / 2, 1 / 3, 4 / 6))
    m = ref.metrics
    assert (m.tasks, m.positive, m.abstention, m.abstained, m.answered) == (6, 4, 2, 1, 3)
    assert dict(m.miss_causes) == {"gate": 1, "coverage": 1}
    assert [(x.task, x.tool, x.query, x.cause, x.rank, x.gate, x.detail) for x in ref.misses] == [
        ("t5", B, "gadget gizmo", "gate", None, "gadget", "lacks the gate term 'gadget' (it occurs in 1 tool)"),
        ("t6", D, "sprocket widget gadget doohickey", "coverage", None, "sprocket",
         "covers 1 of 4 answerable terms; needs 2"),
    ]
    assert ev.limit == 5 and ev.k == 5 and ev.unknown_expected == ()


def test_limit_cuts_recall_at_limit_and_mrr_but_not_the_ranking(mini, mini_queries):
    ins, _ = mini
    ev = evaluate(ins, load_queries(mini_queries), ["reference"], limit=2)
    # t1's gamma is rank 3 > 2: recall@limit 0 and RR 0, recall@5 still 1.
    assert metrics(ev, "reference") == pytest.approx((1 / 8, 1 / 2, 1 / 4, 1 / 4, 4 / 6))
    assert ev.variant("reference").misses[0].cause == "rank"
    assert ev.variant("reference").misses[0].rank == 3
    assert ev.variant("reference").misses[0].detail == "admitted at rank 3 of 3; only the first 2 are returned"
    assert task_cell(ev.variant("reference").tasks[0], 2) == "(3)"
    assert [task_cell(t, 2) for t in ev.variant("reference").tasks[1:]] == ["1", "empty", "NOT EMPTY", "—", "—"]


def test_variants_by_hand(mini, mini_queries):
    ins, _ = mini
    ev = evaluate(ins, load_queries(mini_queries), ["no-gate", "no-coverage", "no-gate+no-coverage"])
    # no gate: t5's beta is admitted (gadget > gizmo scores: alpha 1, beta 2); t6 still fails the
    # floor (delta covers 1 of 2 needed) but alpha and gamma are returned, so t6 is "answered".
    assert [t.ranks for t in ev.variant("no-gate").tasks] == [(3,), (2, 1), (), (), (2,), (None,)]
    assert metrics(ev, "no-gate") == pytest.approx((1 / 8, 3 / 4, 3 / 4, 11 / 24, 5 / 6))
    # no coverage floor: the gate term alone admits delta for t6.
    assert [t.ranks for t in ev.variant("no-coverage").tasks] == [(3,), (2, 1), (), (), (None,), (1,)]
    assert metrics(ev, "no-coverage") == pytest.approx((3 / 8, 3 / 4, 3 / 4, 7 / 12, 5 / 6))
    # Both off, t6: alpha and gamma score idf(widget) + one df-1 term, delta one df-1 term, beta
    # idf(widget) (df 3) alone: alpha, gamma, delta, beta.
    assert [t.ranks for t in ev.variant("no-gate+no-coverage").tasks][4:] == [(2,), (3,)]


def test_unknown_expected_name_is_a_not_in_catalog_miss(mini):
    ins, _ = mini
    queries = parse_queries({"tasks": [{"id": "x", "queries": ["widget"], "expected": [A, "mcp__shop__nope"]}]})
    ev = evaluate(ins, queries, ["reference"])
    task = ev.variant("reference").tasks[0]
    assert task.ranks == (1, None) and task.recall_at_1 == 0.5
    assert ev.unknown_expected == ("mcp__shop__nope",)
    assert [(m.tool, m.cause, m.query) for m in task.misses] == [("mcp__shop__nope", "not-in-catalog", "")]


def test_variant_names():
    assert variant_options("reference") == SearchOptions()
    assert variant_options("unicode+no-gate") == SearchOptions(gate=False, tokenizer="unicode",
                                                              unknown_terms="ignore-non-ascii")
    assert variant_options("name-substring") == SearchOptions(name_substring_fallback=True)
    with pytest.raises(VariantError, match="unknown variant 'bogus'"):
        variant_options("reference+bogus")
    # The pattern would be searched while explain, tuning and miss causes followed the embeddings.
    for combined in ("semantic+anthropic-regex", "anthropic-regex+semantic"):
        with pytest.raises(VariantError, match=rf"'{re.escape(combined)}': a regular-expression variant "
                                               r"\(anthropic-regex\) matches a pattern and cannot be combined"):
            variant_options(combined)
    result = run_cli("explain", ROOT / "sample_catalogs" / "team-workspace.yaml", "-q", "issue$", "--variant",
                     "semantic+anthropic-regex")
    assert result.returncode == 2 and "cannot be combined with the semantic ranker" in result.stderr, result.stderr
    assert DEFAULT_VARIANTS == ("reference", "no-gate", "no-coverage", "plain-bm25", "unicode", "name-substring",
                                "agent", "evidence", "anthropic-bm25", "anthropic-regex", "hermes-name-bonus")


@pytest.mark.parametrize("data, message", [
    ({"tasks": [{"id": "a", "queries": ["x"]}]}, r"tasks\[0\] \(a\): expected an 'expected' list"),
    ({"tasks": [{"id": "a", "queries": [" "], "expected": []}]}, "at least one non-blank query"),
    ({"tasks": [{"id": "a", "queries": ["q"] * 8, "expected": []}]}, "8 queries; tool_search accepts at most 7"),
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": []}] * 2}, "the id 'a' is used twice"),
    ({"tasks": [{"id": "a", "queries": ["x"], "query": "y", "expected": []}]}, "either 'queries' or 'query'"),
    ({"tasks": [{"id": "a", "queries": [1], "expected": []}]}, "'queries' to be a list of strings"),
    # Blank names only would leave an empty list: the task would silently become an abstention test.
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": [""]}]},
     r"tasks\[0\] \(a\): 'expected' holds only blank names; .* or expected: \[\] for an abstention test"),
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": " "}]}, r"tasks\[0\] \(a\): 'expected' holds only blank"),
    # "expected:" left empty in YAML is null: it would read as an abstention test without a word.
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": None}]},
     r"tasks\[0\] \(a\): 'expected' has no value; .* or expected: \[\] for an abstention test"),
    ({"tasks": []}, "the 'tasks' list is empty"),
    ({"task": []}, "expected a mapping with a 'tasks' list"),
    ({"servers": [{"name": "s", "tools": []}]},
     r"q.yaml: expected a mapping with a 'tasks' list; this looks like a catalog \(the catalog files come first, "
     r"the query file last: toolsearch eval CATALOG\.\.\. QUERIES\)"),
    ({"tool_names": "short", "tasks": []}, "tool_names: expected one of prefixed, as-is"),
    # Wrong types are refused, not turned into text ("True", "[1, 2]", "{'a': 1}").
    ({"tasks": [{"id": True, "queries": ["x"], "expected": []}]}, r"tasks\[0\]: expected a non-empty 'id'"),
    # Whole numbers are ids too, so the message says so, and what it got instead.
    ({"tasks": [{"id": 1.5, "queries": ["x"], "expected": []}]},
     r"tasks\[0\]: expected a non-empty 'id' \(a string or a whole number\), got a number$"),
    ({"tasks": [{"queries": ["x"], "expected": []}]},
     r"tasks\[0\]: expected a non-empty 'id' \(a string or a whole number\) \(there is none\)$"),
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": [], "group": False}]},
     r"tasks\[0\] \(a\): expected 'group' to be a string or a whole number, got true/false"),
    ({"name": [1, 2], "tasks": [{"id": "a", "queries": ["x"], "expected": []}]},
     "q.yaml: expected 'name' to be a string or a whole number, got a list"),
    ({"catalog": {"path": "x"}, "tasks": [{"id": "a", "queries": ["x"], "expected": []}]},
     "q.yaml: expected 'catalog' to be a string or a whole number, got a mapping"),
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": [], "note": {"k": 1}}]},
     r"tasks\[0\] \(a\): expected 'note' to be text, got a mapping"),
    # A misspelt key is refused rather than silently ignored (here the fold group would be lost).
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": [], "grup": "g"}]},
     r"tasks\[0\] \(a\): unknown key 'grup' \(expected id, queries, query, expected, note, group\)"),
    # Labels and names are one line: a line break would print as a line of its own (a forged one).
    ({"tasks": [{"id": "a\nforged: line", "queries": ["x"], "expected": []}]},
     r"tasks\[0\]: expected 'id' on one line \(no line break or tab\), got U\+000A at character 2 of "),
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": ["mcp__s__t\ntoolsearch: warning: forged"]}]},
     r"tasks\[0\] \(a\): expected 'expected' on one line \(no line break or tab\), got U\+000A"),
    ({"name": "evil\u2028name", "tasks": [{"id": "a", "queries": ["x"], "expected": []}]},
     r"q.yaml: expected 'name' on one line \(no line break or tab\), got U\+2028 at character 5"),
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": [], "group": "g\tg"}]},
     r"tasks\[0\] \(a\): expected 'group' on one line .* got U\+0009"),
    # A blank query among others is a mistake in a labeled file, not something to drop quietly.
    ({"tasks": [{"id": "a", "queries": ["ok", "  "], "expected": []}]},
     r"tasks\[0\] \(a\): query 2 is blank; expected text \(remove it\)"),
    # A query of invisible characters only is blank to a reader and finds nothing: an abstention test
    # passed by it counted among the nonsense queries left empty.
    ({"tasks": [{"id": "a", "queries": ["\u200b\u202e\u200b"], "expected": []}]},
     r"tasks\[0\] \(a\): query 1 holds only invisible characters \('⟨U\+200B⟩⟨U\+202E⟩⟨U\+200B⟩'\); expected text"),
    ({"tasks": [{"id": "a", "queries": ["ok", " \ufeff "], "expected": []}]},
     r"tasks\[0\] \(a\): query 2 holds only invisible characters"),
    # A query given twice in one task would count twice in query recall@5 and nonsense queries empty.
    ({"tasks": [{"id": "a", "queries": ["create issue", "list issues", "create issue"], "expected": []}]},
     (r"tasks\[0\] \(a\): query 3 repeats query 1 'create issue'; remove it \(it would count twice in the "
      r"per-query figures\)")),
    # A name written twice is scored once, but it is most often another tool's name mistyped.
    ({"tasks": [{"id": "a", "queries": ["x"], "expected": ["mcp__s__t", "mcp__s__u", " mcp__s__t"]}]},
     (r"tasks\[0\] \(a\): expected name 3 repeats name 1 'mcp__s__t'; remove it \(or write the tool it was "
      r"meant to name\)")),
    # A query is a request, not a document (a megabyte query took minutes to evaluate).
    ({"tasks": [{"id": "a", "queries": ["ok", "x" * 2001], "expected": []}]},
     r"tasks\[0\] \(a\): query 2 has 2,001 characters; expected at most 2,000"),
    # Invisible characters in an id are shown in the message.
    ({"tasks": [{"id": "a\u202eb", "queries": ["x"], "expected": []}] * 2},
     r"tasks\[1\] \(a⟨U\+202E⟩b\): the id 'a⟨U\+202E⟩b' is used twice"),
])
def test_query_file_errors_name_the_place(data, message):
    with pytest.raises(QueryFileError, match=message):
        parse_queries(data, "q.yaml")


def test_query_file_text_and_cleaning():
    qf = load_queries_text("tasks:\n  - {id: 7, query: '  create issue ', expected: [a, ' ']}\n", "up.yaml")
    assert qf.name == "up" and qf.tasks[0].id == "7"
    assert qf.tasks[0].queries == ("create issue",) and qf.tasks[0].expected == ("a",)
    with pytest.raises(QueryFileError, match=r"up.yaml: line 1, column \d+: not valid YAML"):
        load_queries_text("tasks: [", "up.yaml")
    with pytest.raises(QueryFileError, match="cannot read the query file"):
        load_queries("/nonexistent/q.yaml")


# --- search switches ------------------------------------------------------------------------------

def test_default_options_are_the_reference():
    assert SearchOptions() == SearchOptions(gate=True, coverage=True, tokenizer="ascii", name_substring_fallback=False)
    with pytest.raises(ValueError, match="tokenizer must be one of"):
        SearchOptions(tokenizer="icu")


def test_unicode_tokenizer():
    assert unicode_query_tokens("経路検索 駅") == [
        ("経", "経"), ("経路", "経路"), ("路", "路"), ("路検", "路検"), ("検", "検"), ("検索", "検索"), ("索", "索"),
        ("駅", "駅")]
    # NFKC: full-width ASCII becomes ASCII; half-width katakana becomes full-width; Hangul and Han too.
    assert tokenize_unicode("ＩＣ カード") == ["ic", "カ", "カー", "ー", "ード", "ド"]
    assert tokenize_unicode("ｶﾅ") == ["カ", "カナ", "ナ"]
    assert tokenize_unicode("서울 北京") == ["서", "서울", "울", "北", "北京", "京"]
    assert tokenize_unicode("Café Привет") == ["café", "привет"]
    for text in ("Create issues in v1.2 repo_name", "GITHUB_create-issue: e.g. 42 things!", ""):
        assert unicode_query_tokens(text) == query_tokens(text)
        assert tokenize_unicode(text) == tokenize(text)


def test_unicode_variant_finds_japanese_tools_the_reference_cannot():
    ins = inspector_of([SHIPPED / "japanese.yaml"])
    reference = ins.bridge(parse_config({})).index
    unicode = ins.bridge(parse_config({}), SearchOptions(tokenizer="unicode")).index
    for query, tool in [("時刻表", "mcp__norikae__get_timetable"), ("試算表", "mcp__kaikei__get_trial_balance"),
                        ("有給休暇 申請", "mcp__kintai__request_paid_leave"), ("遅延証明書", "mcp__norikae__get_delay_certificate")]:
        assert reference.search(query, 5) == []
        assert unicode.search(query, 5)[0][0] == tool
    # ASCII queries find the same tools (scores differ: the corpus statistics now count Japanese terms).
    assert [n for n, _ in unicode.search("clock out", 5)] == [n for n, _ in reference.search("clock out", 5)]
    ex = unicode.explain("時刻表", 5)
    assert [raw for raw, _ in ex.tokens] == ["時", "時刻", "刻", "刻表", "表"]
    assert ex.matches[0] == "mcp__norikae__get_timetable"


def test_name_substring_fallback():
    ins = inspector_of([SHIPPED / "japanese.yaml"])
    reference = ins.bridge(parse_config({})).index
    fallback = ins.bridge(parse_config({}), SearchOptions(name_substring_fallback=True)).index
    assert fallback_key("  E-Ticket ") == "eticket" and fallback_key("on call") == "oncall"
    assert reference.search("e-ticket", 5) == []  # "ticket" occurs nowhere: the gate empties it
    assert fallback.search("e-ticket", 5) == [("mcp__norikae__issue_eticket", C.NAME_SUBSTRING_FALLBACK_SCORE)]
    ex = fallback.explain("e-ticket", 5)
    assert [(c.name, c.admitted, c.rank) for c in ex.candidates if c.admitted] == [("mcp__norikae__issue_eticket", True, 1)]
    assert "name-substring fallback" in ex.candidates[0].reason
    # Only when nothing else is admitted; non-ASCII queries can fall back too.
    assert fallback.search("clock out", 5) == reference.search("clock out", 5)
    assert fallback.search("ticket", 2) == [("mcp__norikae__issue_eticket", 0.1)]
    assert fallback.search("", 5) == [] and fallback.search("zzz", 0) == []


# --- shipped query files --------------------------------------------------------------------------

@pytest.fixture(scope="module")
def shipped_evaluations():
    out = {}
    for name in ("cloudflare-flat", "japanese", "team-workspace"):
        ins = inspector_of([SHIPPED / f"{name}.yaml"])
        out[name] = evaluate(ins, load_queries(QUERIES / f"{name}.yaml"))
    return out


def test_shipped_query_files_sizes_and_names(shipped_evaluations):
    sizes = {}
    for name, ev in shipped_evaluations.items():
        assert ev.unknown_expected == (), name
        m = ev.variant("reference").metrics
        sizes[name] = (m.tasks, m.positive, m.abstention)
    assert sizes == {"cloudflare-flat": (63, 56, 7), "japanese": (36, 32, 4), "team-workspace": (18, 15, 3)}


def test_cloudflare_reference_metrics(shipped_evaluations):
    ev = shipped_evaluations["cloudflare-flat"]
    # Hand-checked tasks: "create dns record" ranks the create tool first; "list workers scripts"
    # puts the secrets/tails/versions list tools (same words, shorter docs) above the scripts list;
    # "list accounts" is rank 34 (every account-level tool shares both words: docs/reference.md §12's
    # get_accounts case); "send gmail email" is empty because "gmail" occurs nowhere (the gate).
    ranks = {t.task.id: t.ranks for t in ev.variant("reference").tasks}
    assert ranks["dns-create-record"] == (1,)
    assert ranks["workers-list"] == (4,)
    assert ranks["accounts-list"] == (34,)
    assert ranks["r2-bucket-setup"] == (2, 1)
    assert ranks["dnssec-enable"] == (None,)
    by_id = {t.task.id: t for t in ev.variant("reference").tasks}
    assert by_id["abstain-gmail"].matches == ((),) and by_id["abstain-gmail"].correct
    # 26 tasks at rank 1, 7 at 2, 2 at 3, 1 at 4, 1 at 5 (two two-tool tasks have one tool at 1).
    assert metrics(ev, "reference") == pytest.approx((25 / 56, 37 / 56, 37 / 56, 1837 / 60 / 56, 54 / 63))
    assert dict(ev.variant("reference").metrics.miss_causes) == {"gate": 15, "coverage": 1, "rank": 3}
    assert metrics(ev, "no-gate") == pytest.approx((29 / 56, 45 / 56, 45 / 56, 2149 / 60 / 56, 55 / 63))
    assert ev.variant("no-gate").metrics.abstained == 0  # without the gate every abstention test fails
    assert metrics(ev, "no-coverage") == pytest.approx((25 / 56, 38 / 56, 38 / 56, 1867 / 60 / 56, 57 / 63))
    # An ASCII catalog: the Unicode tokenizer and the fallback change nothing on these tasks.
    assert metrics(ev, "unicode") == metrics(ev, "reference")
    assert metrics(ev, "name-substring") == metrics(ev, "reference")


def test_japanese_metrics_reference_vs_unicode(shipped_evaluations):
    ev = shipped_evaluations["japanese"]
    assert metrics(ev, "reference") == pytest.approx((10 / 32, 10 / 32, 10 / 32, 10 / 32, 14 / 36))
    assert dict(ev.variant("reference").metrics.miss_causes) == {"gate": 3, "no-tokens": 19}
    # Unknown particle bigrams no longer become the gate term: the one natural sentence of the file
    # (route-ja-phrase) is found too.
    assert metrics(ev, "unicode") == pytest.approx((27 / 32, 29 / 32, 29 / 32, 28 / 32, 33 / 36))
    assert metrics(ev, "name-substring") == pytest.approx((11 / 32, 11 / 32, 11 / 32, 11 / 32, 15 / 36))
    ref = {t.task.id: t for t in ev.variant("reference").tasks}
    uni = {t.task.id: t for t in ev.variant("unicode").tasks}
    # Japanese-only queries: the reference sees no token; the Unicode tokenizer ranks the tool first.
    for task_id in ("timetable-ja", "trial-balance-ja", "paid-leave-ja", "clock-in-ja", "fare-ja"):
        assert ref[task_id].ranks == (None,) and ref[task_id].misses[0].cause == "no-tokens"
        assert uni[task_id].ranks == (1,)
    # Every abstention test stays empty under both.
    assert all(t.correct for t in uni.values() if t.task.abstention)
    assert uni["station-facilities-ja"].ranks == (1,) or uni["station-facilities-ja"].misses[0].cause == "gate"


def test_team_workspace_reference_metrics(shipped_evaluations):
    ev = shipped_evaluations["team-workspace"]
    assert metrics(ev, "reference") == pytest.approx((8 / 15, 14 / 15, 14 / 15, 32 / 45, 1.0))
    assert [(m.task, m.cause, m.gate) for m in ev.variant("reference").misses] == [("failed-ci-logs", "gate", "ci")]
    assert metrics(ev, "no-gate") == pytest.approx((9 / 15, 1.0, 1.0, 35 / 45, 15 / 18))


# --- lint ---------------------------------------------------------------------------------------

def lint_of(data, naming="prefixed", **config):
    catalog = load_text(yaml.safe_dump(data, allow_unicode=True), "lint.yaml")
    return lint(Inspector(catalog, naming), parse_config(config))


def found(report):
    return [(f.severity, f.rule, f.server, f.tool) for f in report.findings]


def tool(name, description="Do one specific thing with a widget.", schema=None):
    return {"name": name, "description": description, "inputSchema": schema or OBJ}


def test_lint_names_and_collisions():
    report = lint_of({"servers": [
        {"name": "docs", "tools": [tool("read-file"), tool("read_file", "Read a file from the docs."),
                                   tool("ping", "Ping the docs."), tool("ping", "Ping again.")]},
        {"name": "my-api", "tools": [tool("status", "Status of my api.")]},
        {"name": "my_api", "tools": [tool("status", "Status of my api.")]},
        {"name": "kanban", "kind": "plugin", "tools": [tool("get.card", "Get a kanban card.")]},
        {"name": "a-very-long-server-name-for-the-analytics-warehouse-replica", "tools": [tool("query", "Run SQL.")]},
    ]})
    assert found(report) == [
        ("error", "name-invalid", "kanban", "get.card"),
        ("error", "sanitized-collision", "docs", "read-file"),
        ("error", "sanitized-collision", "docs", "read_file"),
        ("error", "cross-server-collision", "my_api", "status"),
        ("warning", "name-over-64", "a-very-long-server-name-for-the-analytics-warehouse-replica", "query"),
        ("warning", "duplicate-in-server", "docs", "ping"),
        ("info", "duplicate-name", "my-api", "status"),
        ("info", "duplicate-name", "my_api", "status"),
    ]
    by_rule = {f.rule: f for f in report.findings}
    long = by_rule["name-over-64"]
    assert long.name == clamp_tool_name("mcp__a_very_long_server_name_for_the_analytics_warehouse_replica__query")
    assert len(long.name) == 64 and "(the tool's own name is cut off entirely)" in long.message
    assert "'read-file' and 'read_file' both become 'mcp__docs__read_file'" in report.findings[1].message
    assert by_rule["cross-server-collision"].message.startswith("'mcp__my_api__status' is also produced by server 'my-api'")
    assert by_rule["duplicate-in-server"].message == "listed 2 times; the harness keeps the first and drops the rest"
    assert all(f.fix for f in report.findings)


def test_lint_as_is_names_collide_across_servers():
    report = lint_of({"servers": [{"name": "a", "tools": [tool("search")]}, {"name": "b", "tools": [tool("search")]}]},
                     naming="as-is")
    assert found(report) == [("error", "cross-server-collision", "b", "search")]


def test_lint_descriptions():
    report = lint_of({"servers": [{"name": "s", "tools": [
        {"name": "no_description", "inputSchema": OBJ},
        tool("blank", "   "),
        tool("one_word", "Deletes."),
        tool("kanji_only", "時刻表を返します"),
        tool("long_sentence", "Return every open invoice of the customer together with its payment history."),
        tool("huge", "Do it. " + "x" * 2100),
    ]}]})
    assert found(report) == [
        ("warning", "description-empty", "s", "blank"),
        ("warning", "description-empty", "s", "no_description"),
        ("warning", "description-one-word", "s", "one_word"),
        ("warning", "description-no-ascii-words", "s", "kanji_only"),
        ("warning", "description-over-2048", "s", "huge"),
        ("info", "first-sentence-clipped", "s", "long_sentence"),
    ]
    messages = {f.tool: f.message for f in report.findings}
    assert messages["no_description"].startswith("no description; the harness substitutes 'MCP tool no_description from server s'")
    assert messages["blank"].startswith("the description is whitespace only")
    assert messages["long_sentence"] == "the listing line shows 'Return every open invoice of the customer together with its…'"
    assert messages["huge"].startswith("the description is 2,107 characters (over 2,048)")


def test_lint_unreachable_probe():
    assert name_probe("dns_records-list.v2") == "dns records list v2"
    assert probe_keywords("Return every open invoice of the customer together with its payment history.") == [
        "every", "open", "invoice", "customer"]
    assert probe_keywords("List a DNS record of the zone, e.g. 42.") == ["list", "dns", "record", "zone"]
    # Six servers expose "report" with the same description: the probe "report" ties them all, and
    # ties keep catalog order (mcp__s1__report … mcp__s6__report), so s6 is 6th with a limit of 5.
    servers = [{"name": f"s{i}", "tools": [tool("report", "Report.")]} for i in range(1, 7)]
    report = lint_of({"servers": servers})
    unreachable = [f for f in report.findings if f.rule == "unreachable"]
    assert [(f.server, f.tool, f.message) for f in unreachable] == [
        ("s6", "report", "not in the first 5 results for its own words: 'report' → rank 6")]
    assert [f.server for f in lint_of({"servers": servers}, search_default_limit=6).findings if f.rule == "unreachable"] == []


def test_lint_schema_size_and_tools_per_request():
    big = {"type": "object", "properties": {f"field_{i}": {"type": "string", "description": "d" * 80} for i in range(60)}}
    small = [tool(f"t{i}", f"Tool number {i} does one thing.") for i in range(140)]
    report = lint_of({"servers": [{"name": "s", "tools": [*small, tool("big", "A tool with a huge schema.", big)]}]})
    rules = [(f.severity, f.rule, f.tool) for f in report.findings if f.rule in ("schema-large", "too-many-tools")]
    assert rules == [("warning", "too-many-tools", ""), ("warning", "schema-large", "big")]
    by_rule = {f.rule: f for f in report.findings}
    assert by_rule["too-many-tools"].message == ("with tool search off the request would carry 141 tools; OpenAI Chat "
                                                 "Completions and Azure OpenAI reject more than 128")
    # the median has its unit, as the definition's size has
    assert by_rule["schema-large"].message == "the definition is 1,927 tokens (chars4), 47.0× the catalog median of 41 tokens"
    # Tool search off: the request itself carries every tool.
    off = lint_of({"servers": [{"name": "s", "tools": small}]}, enabled="off")
    assert [(f.severity, f.message) for f in off.findings if f.rule == "too-many-tools"] == [
        ("error", "the request carries 140 tools (tool search is off at these settings, so every tool is sent); "
                  "OpenAI Chat Completions and Azure OpenAI reject more than 128")]
    # Core tools stay visible: 130 of them exceed the cap even with tool search on.
    core = lint_of({"servers": [{"name": "core", "kind": "core", "tools": small[:130]},
                                {"name": "s", "tools": [tool("one")]}]})
    assert [f.message for f in core.findings if f.rule == "too-many-tools"] == [
        "the request carries 133 tools (130 visible + 3 bridge tools); OpenAI Chat Completions and Azure OpenAI "
        "reject more than 128"]
    core_only = lint_of({"servers": [{"name": "core", "kind": "core", "tools": small[:130]}]})
    assert [f.message for f in core_only.findings if f.rule == "too-many-tools"] == [
        "the request carries 130 tools (nothing is deferrable, so tool search is not active and every tool is "
        "sent); OpenAI Chat Completions and Azure OpenAI reject more than 128"]


def test_lint_load_problems():
    report = lint_of({"servers": [{"name": "bad", "tools": [{"description": "no name"}, tool("x")]}]})
    assert found(report)[:1] == [("error", "load-problem", "", "")]
    assert report.findings[0].message == "lint.yaml: servers[0].tools[0]: expected a non-empty string 'name'; tool skipped"


def test_lint_hard_cases():
    report = lint(inspector_of([SHIPPED / "hard-cases.yaml"]))
    assert found(report) == [
        ("error", "sanitized-collision", "docs", "read-file"),
        ("error", "sanitized-collision", "docs", "read_file"),
        ("error", "cross-server-collision", "my_api", "ping"),
        # tools without inputSchema.type: the SDK rejects the whole tools/list of legacy-crm
        ("error", "sdk-rejects", "legacy-crm", "find_contact"),
        ("error", "sdk-rejects", "legacy-crm", "log_activity"),
        ("error", "sdk-rejects", "legacy-crm", "ping"),
        # a root anyOf holding every parameter: registration removes it
        ("error", "schema-root-dropped", "legacy-crm", "log_activity"),
        ("warning", "name-over-64", "acme-customer-data-platform-eu-west",
         "synchronize_customer_segments_with_marketing_automation"),
        ("warning", "name-over-64", "billing", "reconcile_invoices_against_processor_payout_reports"),
        ("warning", "name-over-64", "internal-analytics-warehouse-replica-for-finance-reporting-q3", "list_tables"),
        ("warning", "name-over-64", "internal-analytics-warehouse-replica-for-finance-reporting-q3", "query"),
        ("warning", "name-over-64", "shipping-label-printer-fleet-monitor-warehouse-b", "ping_every_printer"),
        ("warning", "description-empty", "docs", "list_sections"),
        ("warning", "description-empty", "docs", "list_versions"),
        ("warning", "description-empty", "docs", "whitespace_only"),
        ("warning", "schema-large", "web-clipper", "search_tickets"),
        ("warning", "description-over-2048", "web-clipper", "search_tickets"),
        ("warning", "hidden-characters", "web-clipper", "tagged_text"),  # stripped at registration
        ("warning", "schema-ref-unsupported", "legacy-crm", "merge_contacts"),
        ("info", "server-empty", "empty-server", ""),
        ("info", "duplicate-name", "core", "read_file"),
        ("info", "duplicate-name", "docs", "read_file"),
        ("info", "duplicate-name", "docs", "search"),
        ("info", "duplicate-name", "legacy-crm", "ping"),
        ("info", "duplicate-name", "my-api", "ping"),
        ("info", "duplicate-name", "my_api", "ping"),
        ("info", "duplicate-name", "wiki", "search"),
        ("info", "first-sentence-clipped", "billing", "reconcile_invoices_against_processor_payout_report"),
        ("info", "first-sentence-clipped", "billing", "reconcile_invoices_against_processor_payout_reports"),
        ("info", "first-sentence-clipped", "core", "todo_list"),
        ("info", "first-sentence-clipped", "docs", "search"),
        ("info", "first-sentence-clipped", "web-clipper", "search_tickets"),
    ]
    billing = next(f for f in report.findings if f.rule == "name-over-64" and f.server == "billing")
    assert billing.name == "mcp__billing__reconcile_invoices_against_processor_payo_8147e250"
    assert report.counts() == {"error": 7, "warning": 12, "info": 13}
    assert report.median_schema_tokens == 64.5


def test_lint_shipped_catalog_summaries():
    counts = {name: lint(inspector_of([SHIPPED / f"{name}.yaml"])).by_rule()
              for name in ("japanese", "team-workspace")}
    assert counts["japanese"] == {"description-no-ascii-words": 17, "first-sentence-clipped": 32}
    assert counts["team-workspace"] == {"too-many-tools": 1, "schema-large": 6, "description-over-2048": 1,
                                        "schema-ref-unsupported": 6, "duplicate-name": 13,
                                        "first-sentence-clipped": 66}


# --- CLI -----------------------------------------------------------------------------------------

def run_quality(*argv: str) -> tuple[int, str, str]:
    """Parse with toolsearch's own parser (plus eval/lint when not wired yet) and call run()."""
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if "eval" not in sub.choices:
        cli_quality.add_parsers(sub)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli_quality.run(parser.parse_args([str(a) for a in argv]))
        except SystemExit as exc:  # argparse errors
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def test_eval_json_shape(mini, mini_queries):
    ins, catalog = mini
    code, out, err = run_quality("eval", catalog, mini_queries, "--variant", "reference", "--variant", "no-gate",
                                 "--json")
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["query_file", "origin", "catalog", "tool_names", "deferred_count", "limit", "k", "tasks",
                          "unknown_expected", "protocol", "tuned_on", "in_sample", "protocol_note", "tuning_rule",
                          "tuning_unknown_expected", "regex_time_limits", "time_limit_lines", "variants", "problems"]
    assert data["time_limit_lines"] == []  # no regex variant, nothing stopped
    assert (data["query_file"], data["catalog"], data["limit"], data["tasks"]) == ("mini tasks", str(catalog), 5, 6)
    assert [v["name"] for v in data["variants"]] == ["reference", "no-gate"]
    ref = data["variants"][0]
    assert ref["options"] == {"gate": True, "coverage": True, "tokenizer": "ascii", "name_substring_fallback": False,
                              "unknown_terms": "gate", "stop_words": False, "split_words": False,
                              "field_weights": [1, 1, 1], "min_known_share": 0.0, "min_idf_share": 0.0,
                              "query_mode": "words", "index_param_descriptions": False, "segment_words": False,
                              "param_weight": 1, "max_results": 0, "never_empty": False,
                              "name_coverage_bonus": 0.0, "min_best_share": 0.0, "min_best_terms": 0,
                              "min_score_ratio": 0.0}
    assert ref["metrics"] == {
        "abstention_rate": 0.5, "query_recall_at_5": 0.6, "nonsense_queries_empty": 0.5, "tasks": 6, "positive_tasks": 4, "abstention_tasks": 2, "recall_at_1": 0.125, "recall_at_5": 0.5,
        "recall_at_limit": 0.5, "mrr": round(1 / 3, 6), "abstention_accuracy": round(4 / 6, 6),
        "nonsense_tasks_empty": 0.5, "empty_or_not_accuracy": round(4 / 6, 6),  # the shown names, same values
        "abstention_tasks_empty": 1, "positive_tasks_answered": 3, "miss_causes": {"gate": 1, "coverage": 1},
        "time_limit": {"stopped_queries": 0, "stopped_tasks": [], "not_run_queries": 0, "not_run_tasks": []}}
    assert ref["tasks"][1] == {
        "id": "t2", "queries": ["gizmo", "doohickey"], "expected": [D, G], "kind": "positive",
        "ranks": {D: 2, G: 1}, "matches": [[B, D], [G]], "recall_at_1": 0.5, "recall_at_5": 1.0,
        "recall_at_limit": 1.0, "reciprocal_rank": 1.0, "correct": True, "time_limit": None, "query_time_limits": []}
    assert ref["tasks"][2]["kind"] == "abstention" and ref["tasks"][2]["recall_at_1"] is None
    assert ref["misses"][0] == {"task": "t5", "tool": B, "query": "gadget gizmo", "cause": "gate", "rank": None,
                                "gate": "gadget", "detail": "lacks the gate term 'gadget' (it occurs in 1 tool)"}


def test_eval_text_report(mini, mini_queries):
    _, catalog = mini
    code, out, _ = run_quality("eval", catalog, mini_queries, "--variant", "reference", "--limit", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"query file: mini tasks (6 tasks) on catalog {catalog} (4 deferred tools, names prefixed); limit 2"
    assert lines[2].split() == ["variant", "recall@1", "recall@5", "recall@limit", "MRR", "nonsense", "tasks", "empty",
                                "query", "recall@5", "nonsense", "queries", "empty", "empty-or-not", "accuracy", "answered",
                                "abstained"]
    assert lines[4].split() == ["reference", "0.125", "0.500", "0.250", "0.250", "0.500", "0.600", "0.500", "0.667",
                                "3/4", "1/2"]
    assert "t1    (3)" in out and "t4    NOT EMPTY" in out
    assert f"  t1: {G} for 'widget': rank: admitted at rank 3 of 3; only the first 2 are returned" in lines


def test_eval_text_report_shows_invisible_characters(mini, tmp_path):
    """Names, ids, queries and expected names from a query file reach the terminal with bidi
    overrides and zero-width characters as visible markers, and controls escaped."""
    _, catalog = mini
    hostile = write_yaml(tmp_path / "hostile.yaml", {"name": "evil\u202eeman", "tasks": [
        {"id": "t\u200bone\x1b[2J", "queries": ["widget\u2066"], "expected": [G + "\u200b", G]}]})
    result = run_cli("eval", catalog, hostile, "--variant", "reference", "--limit", "2")
    code, out, err = result.returncode, result.stdout, result.stderr
    assert code == 0, err
    for text in (out, err):
        assert not any(ch in text for ch in "\u202e\u200b\u2066\x1b"), text
    assert out.splitlines()[0].startswith(f"query file: evil⟨U+202E⟩eman (1 task) on catalog {catalog} (")
    assert "t⟨U+200B⟩one⟨U+001B⟩[2J  (3)" in out
    assert f"  t⟨U+200B⟩one⟨U+001B⟩[2J: {G} for 'widget⟨U+2066⟩': rank:" in out
    assert out.rstrip().endswith(f"expected names that are not deferred tools here: {G}⟨U+200B⟩")
    assert f"deferred tools of this catalog: {G}⟨U+200B⟩" in err


def test_query_file_json_with_comments_is_read(mini, tmp_path):
    """A JSON query file with comments and a trailing comma (as editors write JSONC) is read as
    catalogs are, instead of failing as YAML one line below the comment."""
    _, catalog = mini
    path = tmp_path / "q.json"
    path.write_text('// labeled by hand\n{"tasks": [\n  {"id": "t1", "query": "widget", /* one */ "expected": ["%s"]},\n]}\n' % G)
    qf = load_queries(path)
    assert [(t.id, t.queries, t.expected) for t in qf.tasks] == [("t1", ("widget",), (G,))]
    result = run_cli("eval", catalog, path, "--variant", "reference", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tasks"] == 1


def test_eval_errors_are_one_line(mini, mini_queries, tmp_path):
    _, catalog = mini
    code, out, err = run_quality("eval", catalog, tmp_path / "missing.yaml")
    assert code == 2 and out == "" and err.strip().count("\n") == 0
    assert "missing.yaml: cannot read the query file" in err
    code, _, err = run_quality("eval", tmp_path / "nope.yaml", mini_queries)
    assert code == 2 and "nope.yaml" in err and "Traceback" not in err
    code, _, err = run_quality("eval", catalog, mini_queries, "--variant", "bogus")
    assert code == 2 and "unknown variant 'bogus'" in err
    bad = write_yaml(tmp_path / "bad.yaml", {"tasks": [{"id": "a", "queries": ["x"]}]})
    code, _, err = run_quality("eval", catalog, bad)
    assert code == 2 and err == f"toolsearch: error: {bad}: tasks[0] (a): expected an 'expected' list (empty for an abstention test)\n"


def test_lint_cli_json_and_exit_status():
    code, out, err = run_quality("lint", SHIPPED / "hard-cases.yaml", "--json")
    assert code == 1 and err == ""  # error findings
    data = json.loads(out)
    assert list(data) == ["catalog", "tool_names", "tool_count", "deferred_count", "median_schema_tokens",
                          "search_limit", "counts", "rules", "findings", "thresholds"]
    assert data["counts"] == {"error": 7, "warning": 12, "info": 13}
    assert list(data["findings"][0]) == ["rule", "severity", "server", "tool", "name", "message", "fix"]
    assert data["thresholds"]["provider_max_tools"] == 128
    # every threshold the rules apply is reported, the schema-large floor whatever the median too
    assert data["thresholds"] == {
        "name_max_chars": 64, "description_max_chars": 2048, "schema_median_factor": 5.0, "schema_min_tokens": 1000,
        "schema_absolute_tokens": 2000, "provider_max_tools": 128,
        "providers": ["OpenAI Chat Completions", "Azure OpenAI"], "short_description_max_chars": 60}
    code, out, _ = run_quality("lint", SHIPPED / "hard-cases.yaml", "--json", "--severity", "error")
    assert [f["rule"] for f in json.loads(out)["findings"]] == (["sanitized-collision"] * 2 + ["cross-server-collision"]
                                                                + ["sdk-rejects"] * 3 + ["schema-root-dropped"])
    code, out, _ = run_quality("lint", SHIPPED / "team-workspace.yaml", "--severity", "warning")
    assert code == 0
    assert out.splitlines()[0] == "catalog: Team workspace (183 tools, 178 deferred, names prefixed); 0 errors, 14 warnings, 79 info notes"
    assert out.splitlines()[1].startswith("warning: too-many-tools: catalog: with tool search off")
    assert out.splitlines()[2].startswith("    fix: Keep tool search enabled")
    code, _, err = run_quality("lint", "/nonexistent.yaml")
    assert code == 2 and err.startswith("toolsearch: error: /nonexistent.yaml")


def _wired() -> bool:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return "eval" in sub.choices and "lint" in sub.choices


needs_wiring = pytest.mark.skipif(not _wired(), reason="eval/lint are not wired into toolsearch.cli.commands yet "
                                                       "(cli_quality.add_parsers / run)")


@needs_wiring
def test_console_script_eval(mini, mini_queries):
    _, catalog = mini
    result = run_cli("eval", catalog, mini_queries, "--variant", "no-coverage", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["variants"][0]["name"] == "no-coverage"
    assert data["variants"][0]["metrics"]["recall_at_1"] == 0.375


@needs_wiring
def test_console_script_lint():
    result = run_cli("lint", SHIPPED / "hard-cases.yaml", "--json")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert json.loads(result.stdout)["counts"] == {"error": 7, "warning": 12, "info": 13}
    missing = run_cli("lint", "/nonexistent.yaml")
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1


# --- the app page ----------------------------------------------------------------------------------

@pytest.fixture
def samples(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "samples"
    folder.mkdir()
    for path in SHIPPED.glob("*.yaml"):
        (folder / path.name).symlink_to(path)
    (folder / "queries").symlink_to(QUERIES)
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    return folder


@pytest.fixture(autouse=True)
def router_mode(monkeypatch):
    """Run AppTest through app.py's st.navigation router (see tests/test_app_search_costs.py)."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def open_quality(catalog: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = catalog
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    assert not at.exception, at.exception
    return at


def frame(at: AppTest, first_column: str, second_column: str | None = None) -> pd.DataFrame:
    """The literal-text table (cells as shown) whose first column is ``first_column``."""
    for value in literal_tables(at).values():
        if list(value.columns)[:1] == [first_column] and (second_column is None or second_column in value.columns):
            return value
    raise AssertionError(f"no table starting with {first_column!r}")


def shown(fraction: float | None) -> str:
    """A share as the page's table shows it: a fraction with three decimals, as toolsearch eval
    prints it (0.938, not 93.75%), an em dash when undefined."""
    return "—" if fraction is None else f"{fraction:.3f}"


def rendered_text(at: AppTest) -> str:
    """Text shown through markdown-rendering elements (which must never carry catalog text)."""
    parts = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "title", "header", "subheader"):
        parts.extend(str(e.value) for e in getattr(at, kind))
    return "\n".join(parts)


def test_page_tables_equal_the_engine(samples):
    at = open_quality("team-workspace")
    assert at.selectbox(key="quality_file:team-workspace").value == "team-workspace.yaml"
    ins = Inspector(load_source(samples / "team-workspace.yaml"))
    ev = evaluate(ins, load_queries(QUERIES / "team-workspace.yaml"), DEFAULT_VARIANTS, parse_config({}))
    table = frame(at, "variant", "recall@1")
    counts = frame(at, "variant", "abstained")
    assert list(table["variant"]) == list(counts["variant"]) == list(DEFAULT_VARIANTS)
    for column, attr in (("recall@1", "recall_at_1"), ("recall@5", "recall_at_k"), ("recall@limit", "recall_at_limit"),
                         ("MRR", "mrr"), ("nonsense tasks empty", "abstention_rate"), ("query recall@5", "query_recall_at_k"),
                         ("nonsense queries empty", "nonsense_queries_empty"),
                         ("empty-or-not accuracy", "abstention_accuracy")):
        shown_column = (table if column in table.columns else counts)[column]
        # MRR is no share, but reads on the same scale
        assert list(shown_column) == [shown(getattr(v.metrics, attr)) for v in ev.variants], column
    assert list(counts["abstained"]) == ["3/3", "0/3", "3/3", "0/3", "3/3", "3/3", "3/3", "3/3", "0/3", "3/3", "3/3"]
    # the variants over tables of at most six (read in full at 1024 px), the tasks beside each
    parts = [t for key, t in literal_tables(at).items() if key == "quality_tasks" or key.startswith("quality_tasks_")]
    assert len(parts) == 2 and all(list(p["task"]) == list(parts[0]["task"]) for p in parts)
    tasks = pd.concat([parts[0], *(p.drop(columns="task") for p in parts[1:])], axis=1)
    assert list(tasks.columns) == ["task", *DEFAULT_VARIANTS]
    assert list(tasks["task"]) == [t.id for t in ev.query_file.tasks]
    for v in ev.variants:
        assert list(tasks[v.name]) == [task_cell(t, ev.limit) for t in v.tasks]
    # the tasks' queries, what the variants change and what each rule checks are drawn only when
    # their expanders are opened (a first load draws less); opened, they hold the engine's figures
    tables = literal_tables(at)
    assert not {"quality_task_queries", "quality_variant_help", "quality_rules"} & set(tables), list(tables)
    for key in ("quality_task_queries_open", "quality_variant_help_open", "quality_rules_open"):
        at.session_state[key] = True  # as a click on the expander does
    at.run()
    assert not at.exception
    queries = frame(at, "task", "queries")
    assert list(queries.columns) == ["task", "queries", "expected"]
    assert list(queries["queries"]) == [" | ".join(t.queries) for t in ev.query_file.tasks]
    misses = frame(at, "task / query", "why")
    first = ev.variant("reference").misses[0]
    assert misses["task / query"][0] == f"{first.task}\n{first.query}"
    assert misses["cause"][0].startswith(first.cause)
    assert list(misses["why"]) == [m.detail for m in ev.variant("reference").misses]
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert [trace["name"] for trace in chart["data"]] == list(DEFAULT_VARIANTS)
    assert chart["data"][0]["x"] == [ev.variants[0].metrics.recall_at_1, ev.variants[0].metrics.recall_at_k,
                                     ev.variants[0].metrics.recall_at_limit, ev.variants[0].metrics.mrr,
                                     ev.variants[0].metrics.abstention_rate, ev.variants[0].metrics.abstention_accuracy]
    report = lint(ins, parse_config({}))
    findings = frame(at, "severity", "finding")
    assert list(findings["finding"]) == [f.message for f in report.findings]
    assert [m.value for m in at.metric][:3] == [str(report.counts()[s]) for s in C.LINT_SEVERITIES]
    rules = literal_tables(at)["quality_rules"]
    assert list(rules["rule"]) == list(RULES)
    assert list(rules["findings"]) == [f"{report.by_rule().get(r, 0):,}" for r in RULES]
    assert list(literal_tables(at)["quality_variant_help"]["variant"]) == list(VARIANT_HELP)


def test_page_variant_choice_and_miss_variant(samples):
    at = open_quality("japanese")
    at.multiselect(key="quality_variants").set_value(["reference", "unicode", "unicode+no-gate"]).run()
    at.selectbox(key="quality_miss_variant").set_value("unicode").run()
    assert not at.exception
    ins = Inspector(load_source(samples / "japanese.yaml"))
    ev = evaluate(ins, load_queries(QUERIES / "japanese.yaml"), ["reference", "unicode", "unicode+no-gate"])
    table = frame(at, "variant", "recall@1")
    assert list(table["recall@1"]) == [shown(v.metrics.recall_at_1) for v in ev.variants]
    assert list(frame(at, "task / query", "why")["why"]) == [m.detail for m in ev.variant("unicode").misses]


def test_page_lint_severity_filter_and_untrusted_text(samples):
    at = open_quality("hard-cases")
    # No shipped query file for hard-cases: the upload choice is preselected.
    assert at.selectbox(key="quality_file:hard-cases").value == "Upload a query file…"
    assert any("Choose a shipped query file or upload one" in i.value for i in at.info)
    at.multiselect(key="lint_severity").set_value(["error"]).run()
    findings = frame(at, "severity", "finding")
    assert list(findings["severity"]) == ["error"] * 7
    assert list(findings["rule"]) == ["sanitized-collision", "sanitized-collision", "cross-server-collision",
                                      "sdk-rejects", "sdk-rejects", "sdk-rejects", "schema-root-dropped"]
    at.multiselect(key="lint_severity").set_value(list(C.LINT_SEVERITIES)).run()
    at.multiselect(key="lint_rules").set_value(["first-sentence-clipped"]).run()
    assert len(frame(at, "severity", "finding")) == 5
    assert "<script>" not in rendered_text(at)


def test_page_query_file_for_another_catalog_warns(samples):
    at = open_quality("team-workspace")
    at.selectbox(key="quality_file:team-workspace").set_value("japanese.yaml").run()
    assert not at.exception
    assert any("29 expected names not among the deferred tools of this catalog" in w.value for w in at.warning)
    assert "mcp__norikae__search_routes" in at.text[0].value


def _hostile_samples(tmp_path, monkeypatch, queries: dict) -> None:
    folder = tmp_path / "hostile-samples"
    (folder / "queries").mkdir(parents=True)
    for path in SHIPPED.glob("*.yaml"):
        (folder / path.name).symlink_to(path)
    write_yaml(folder / "queries" / "team-workspace.yaml", queries)
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)


def test_page_query_file_text_is_shown_literally(tmp_path, monkeypatch):
    """The Quality page shows a query file's name and unknown expected names with invisible
    characters as markers (st.text would pass them on raw)."""
    _hostile_samples(tmp_path, monkeypatch, {"name": "evil\u202eeman", "tasks": [
        {"id": "t1", "query": "create issue", "expected": ["mcp__github__create_issue\u200b"]}]})
    at = open_quality("team-workspace")
    texts = [t.value for t in at.text]
    assert any(t.startswith("evil⟨U+202E⟩eman: 1 task") for t in texts), texts
    assert "mcp__github__create_issue⟨U+200B⟩" in texts
    assert not any("\u202e" in t or "\u200b" in t for t in texts)


def test_page_query_file_error_is_not_markdown(tmp_path, monkeypatch):
    """An error naming a task id from the file shows the id as typed: no link, no emphasis."""
    _hostile_samples(tmp_path, monkeypatch, {"tasks": [
        {"id": "**x** [y](http://example.invalid)\u200b", "query": "a", "expected": []}] * 2})
    at = open_quality("team-workspace")
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "is used twice" in errors[0]
    assert "\\*\\*x\\*\\*" in errors[0] and "⟨U+200B⟩" in errors[0]
    assert "`[y](http://example.invalid)⟨U+200B⟩):`" in errors[0]  # a code span: shown, never a link


def test_page_folds_follow_a_changed_group_not_an_earlier_result(tmp_path, monkeypatch):
    """The Quality page keeps results per query file content; the groups decide the folds, so a
    file whose tasks are put in one group gets that file's answer (too few groups for 2 folds),
    not the figures scored before the groups were edited."""
    names = ["mcp__github__create_issue", "mcp__slack__slack_post_message", "mcp__notion__search",
             "mcp__linear__create_issue"]
    tasks = [{"id": f"t{i}", "query": name.split("__")[-1].replace("_", " "), "expected": [name]}
             for i, name in enumerate(names)]
    _hostile_samples(tmp_path, monkeypatch, {"tasks": tasks})
    at = open_quality("team-workspace")
    at.multiselect(key="quality_variants").set_value(["reference"]).run()
    at.radio(key="quality_protocol").set_value("tuned by folds (out of sample)").run()
    at.number_input(key="quality_folds").set_value(2).run()
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    assert any(t.value.startswith("out of sample: 2-fold") for t in at.text)
    write_yaml(common.SAMPLES_DIR / "queries" / "team-workspace.yaml",
               {"tasks": [{**task, "group": "one"} for task in tasks]})
    at.run()
    assert not at.exception, at.exception
    assert any("2 folds, but the file has 1 task group" in e.value for e in at.error), [e.value for e in at.error]

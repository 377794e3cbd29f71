"""A regex-mode query whose scan stops at its time limit is neither a correct empty answer nor a
plain miss: eval counts it as a failure and names it (text, --json, stderr, the Search quality page,
the HTML report), and once the run's regex time budget is spent the remaining regex queries are not
run and said so. The time limit is lowered here so that the tests stay fast; nothing is timed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import literal_tables, run_cli, write_yaml
from toolsearch.analysis import evaluation
from toolsearch.engine import search
from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "sample_catalogs"
# Every description is 40 a's and a '!': '(a|aa)+$' backtracks for far longer than the limit on it;
# the names hold no 'a', so the name scan is quick and the text scan stops.
CATALOG = {"servers": [{"name": "s", "tools": [
    {"name": f"t{i}", "description": "a" * 40 + "!", "inputSchema": {"type": "object"}} for i in range(50)]}]}
HOSTILE = "(a|aa)+$"
# three different patterns that backtrack alike ('$$' is '$'): no task repeats another
NONSENSE = {"tasks": [{"id": f"n{i}", "query": HOSTILE + "$" * i, "expected": []} for i in range(3)]}
MIXED = {"tasks": [
    {"id": "found", "query": "t1", "expected": ["mcp__s__t1"]},
    {"id": "slow", "queries": ["t2", HOSTILE], "expected": ["mcp__s__t2"]},
    {"id": "quiet", "query": "payroll", "expected": []},
]}


@pytest.fixture(autouse=True)
def short_limit(monkeypatch):
    """A 50 ms scan limit (the catastrophic pattern still runs far past it)."""
    monkeypatch.setattr(search, "REGEX_TIMEOUT", 0.05)


def _eval(tmp_path, tasks, *more):
    catalog = write_yaml(tmp_path / "cat.yaml", CATALOG)
    queries = write_yaml(tmp_path / "q.yaml", tasks)
    return run_cli("eval", catalog, queries, "--no-servers", "--variant", "anthropic-regex", *more)


def test_stopped_scans_are_not_counted_as_empty_answers(tmp_path):
    done = _eval(tmp_path, NONSENSE)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    row = next(line for line in lines if line.startswith("anthropic-regex "))
    # nonsense tasks empty, nonsense queries empty, empty-or-not accuracy: 0, not 1; abstained 0/3
    assert row.split() == ["anthropic-regex", "—", "—", "—", "—", "0.000", "—", "0.000", "0.000", "0/0", "0/3"]
    said = ("anthropic-regex: 3 queries stopped at the regex scan's time limit (0.05 s) in 3 tasks (n0, n1, n2); "
            "each such task counts as a failure (no rank, recall 0, not answered, not left empty) and each such "
            "query as a miss or as not empty")
    assert said in lines
    assert [line.split() for line in lines if line[:3] in ("n0 ", "n1 ", "n2 ")] == [["n0", "stopped"], ["n1", "stopped"],
                                                                       ["n2", "stopped"]]
    assert f"toolsearch: warning: {tmp_path / 'q.yaml'}: {said}" in done.stderr.splitlines()


def test_json_counts_the_stopped_queries_and_names_their_tasks(tmp_path):
    data = json.loads(_eval(tmp_path, NONSENSE, "--json").stdout)
    variant = data["variants"][0]
    assert variant["metrics"]["time_limit"] == {"stopped_queries": 3, "stopped_tasks": ["n0", "n1", "n2"],
                                                "not_run_queries": 0, "not_run_tasks": []}
    assert (variant["metrics"]["nonsense_tasks_empty"], variant["metrics"]["nonsense_queries_empty"],
            variant["metrics"]["abstention_tasks_empty"]) == (0.0, 0.0, 0)
    assert [(t["time_limit"], t["query_time_limits"], t["correct"]) for t in variant["tasks"]] == \
        [("stopped", ["stopped"], False)] * 3
    assert data["regex_time_limits"] == {"scan_seconds": 0.05, "run_budget_seconds": evaluation.REGEX_EVAL_BUDGET}
    assert len(data["time_limit_lines"]) == 1
    assert data["time_limit_lines"][0].startswith("anthropic-regex: 3 queries stopped at the regex scan's time limit")


def test_a_stopped_query_fails_its_positive_task_with_its_own_cause(tmp_path):
    data = json.loads(_eval(tmp_path, MIXED, "--json").stdout)
    variant = data["variants"][0]
    tasks = {t["id"]: t for t in variant["tasks"]}
    assert (tasks["found"]["recall_at_5"], tasks["found"]["time_limit"]) == (1.0, None)
    assert (tasks["slow"]["recall_at_5"], tasks["slow"]["reciprocal_rank"], tasks["slow"]["correct"],
            tasks["slow"]["time_limit"], tasks["slow"]["query_time_limits"]) == (0.0, 0.0, False, "stopped",
                                                                                ["", "stopped"])
    assert (tasks["quiet"]["correct"], tasks["quiet"]["time_limit"]) == (True, None)
    metrics = variant["metrics"]
    assert (metrics["recall_at_5"], metrics["positive_tasks_answered"], metrics["query_recall_at_5"]) == (0.5, 1, round(2 / 3, 6))
    assert metrics["time_limit"]["stopped_tasks"] == ["slow"]
    assert [(m["task"], m["query"], m["cause"]) for m in variant["misses"]] == [("slow", HOSTILE, "time-limit")]
    assert metrics["miss_causes"] == {"time-limit": 1}


def test_once_the_run_budget_is_spent_the_other_regex_queries_are_not_run(tmp_path, monkeypatch):
    # A budget below one stopped scan: the first query runs (and stops), the others are not run.
    monkeypatch.setattr(evaluation, "REGEX_EVAL_BUDGET", 0.001)
    done = _eval(tmp_path, NONSENSE)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert ("anthropic-regex: 1 query stopped at the regex scan's time limit (0.05 s) in 1 task (n0); 2 queries not "
            "run because the run's regex time budget (0.001 s of scans in all) was spent, in 2 tasks (n1, n2); each "
            "such task counts as a failure (no rank, recall 0, not answered, not left empty) and each such query as "
            "a miss or as not empty") in lines
    assert [line.split() for line in lines if line[:3] in ("n0 ", "n1 ", "n2 ")] == [["n0", "stopped"], ["n1", "not", "run"],
                                                                       ["n2", "not", "run"]]
    data = json.loads(_eval(tmp_path, NONSENSE, "--json").stdout)
    assert data["variants"][0]["metrics"]["time_limit"] == {"stopped_queries": 1, "stopped_tasks": ["n0"],
                                                            "not_run_queries": 2, "not_run_tasks": ["n1", "n2"]}


def test_word_variants_are_not_held_by_the_regex_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(evaluation, "REGEX_EVAL_BUDGET", 0.0)
    catalog = write_yaml(tmp_path / "cat.yaml", CATALOG)
    queries = write_yaml(tmp_path / "q.yaml", MIXED)
    data = json.loads(run_cli("eval", catalog, queries, "--no-servers", "--variant", "reference",
                              "--variant", "anthropic-regex", "--json").stdout)
    limits = {v["name"]: v["metrics"]["time_limit"]["not_run_queries"] for v in data["variants"]}
    assert limits == {"reference": 0, "anthropic-regex": 4}
    assert "time-limit" not in data["variants"][0]["metrics"]["miss_causes"]


def test_report_names_the_stopped_queries(tmp_path):
    catalog = write_yaml(tmp_path / "cat.yaml", CATALOG)
    queries = write_yaml(tmp_path / "q.yaml", NONSENSE)
    out = tmp_path / "r.html"
    made = run_cli("report", catalog, "--no-servers", "-o", out, "--query-file", queries, "--no-strategies",
                   "--no-lint")
    assert made.returncode == 0, made.stderr
    assert "anthropic-regex: 3 queries stopped at the regex scan&#x27;s time limit (0.05 s) in 3 tasks (n0, n1, n2)" \
        in out.read_text(encoding="utf-8")


def test_quality_page_names_the_stopped_queries_and_marks_their_tasks(tmp_path, monkeypatch):
    folder = tmp_path / "samples"
    (folder / "queries").mkdir(parents=True)
    write_yaml(folder / "hostile.yaml", {"name": "hostile", **CATALOG})
    write_yaml(folder / "queries" / "hostile.yaml", NONSENSE)
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "hostile"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    assert not at.exception, at.exception
    warnings = [w.value.replace("\\", "") for w in at.warning]  # markdown escapes dropped
    assert any(w.startswith("anthropic-regex: 3 queries stopped at the regex scan's time limit (0.05 s) in 3 tasks "
                            "(n0, n1, n2)") for w in warnings), warnings
    tables = literal_tables(at)
    cells = [(task, row) for key in tables if key.startswith("quality_tasks") and "anthropic-regex" in tables[key]
             for task, row in zip(tables[key]["task"], tables[key]["anthropic-regex"])]
    assert cells == [("n0", "stopped"), ("n1", "stopped"), ("n2", "stopped")]


def test_docs_quote_the_budget_the_code_applies():
    quality = " ".join((ROOT / "docs" / "quality.md").read_text(encoding="utf-8").split())
    assert f"regex time budget of {evaluation.REGEX_EVAL_BUDGET:g} seconds of scans" in quality
    searched = " ".join((ROOT / "docs" / "search-quality.md").read_text(encoding="utf-8").split())
    assert f"after {evaluation.REGEX_EVAL_BUDGET:g} seconds of scans in one run" in searched


def test_a_replayed_session_query_whose_scan_stopped_says_so(tmp_path):
    """``sessions`` replays recorded queries under each variant: a regex scan that stopped at its
    limit was an empty result with the words search's gate-term reason; its reason now says the scan
    stopped and that later tools were not checked."""
    catalog = write_yaml(tmp_path / "cat.yaml", CATALOG)
    session = [{"id": "s1", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "tool_search", "arguments": json.dumps({"queries": [HOSTILE]})}}]},
        {"role": "tool", "tool_call_id": "c1", "tool_name": "tool_search", "content": json.dumps(
            {"queries": [HOSTILE], "total_available": 50, "results": [{"query": HOSTILE, "matches": []}], "tools": {}})}]}]
    sessions = tmp_path / "sessions.json"
    sessions.write_text(json.dumps(session), encoding="utf-8")
    done = run_cli("sessions", sessions, "--catalog", catalog, "--no-servers", "--variant", "anthropic-regex", "--json")
    assert done.returncode == 0, done.stderr
    (query,) = json.loads(done.stdout)["per_session"][0]["queries"]
    why = query["replay"]["anthropic-regex"]["why"]
    assert "tools after that point were not checked" in why and "gate term" not in why, why

"""A query file of abstention tests only (every task ``expected: []``) has no query recall, so no
variant can be picked by the tuning rule: eval, the Search quality page and the HTML report say so
in one line (the same sentence, from ``Evaluation.trade_off``) instead of leaving the verdict out."""

from __future__ import annotations

import html
import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli, write_yaml
from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "sample_catalogs"
CATALOG = SHIPPED / "team-workspace.yaml"
ABSTAIN_ONLY = {"name": "nonsense only", "tasks": [
    {"id": "payroll", "query": "run payroll for employees", "expected": []},
    {"id": "weather", "queries": ["weather tomorrow", "forecast for paris"], "expected": []}]}
VERDICT = ("{sample}, no variant can be picked by the tuning rule (the highest query recall@5 among variants with "
           "nonsense queries empty at least 0.950): the file has no task with an expected tool, so query "
           "recall@5 is undefined and only abstention is measured")


def test_eval_text_says_why_there_is_no_verdict(tmp_path):
    queries = write_yaml(tmp_path / "nonsense.yaml", ABSTAIN_ONLY)
    done = run_cli("eval", CATALOG, queries)
    assert done.returncode == 0, done.stderr
    assert VERDICT.format(sample="in sample") in done.stdout.splitlines()


def test_eval_out_of_sample_says_it_too(tmp_path):
    queries = write_yaml(tmp_path / "nonsense.yaml", ABSTAIN_ONLY)
    tune = SHIPPED / "queries" / "team-workspace.yaml"
    done = run_cli("eval", CATALOG, "--test", queries, "--tune", tune, "--variant", "reference")
    assert done.returncode == 0, done.stderr
    assert VERDICT.format(sample="out of sample") in done.stdout.splitlines()


def test_a_file_with_an_expected_tool_still_gets_the_verdict(tmp_path):
    queries = write_yaml(tmp_path / "mixed.yaml", {"tasks": [
        *ABSTAIN_ONLY["tasks"], {"id": "post", "query": "slack post message",
                                 "expected": ["mcp__slack__slack_post_message"]}]})
    lines = run_cli("eval", CATALOG, queries, "--variant", "reference").stdout.splitlines()
    assert any(line.startswith("in sample, best by the tuning rule") for line in lines)
    assert not any("no variant can be picked" in line for line in lines)


def test_report_says_why_there_is_no_verdict(tmp_path):
    queries = write_yaml(tmp_path / "nonsense.yaml", ABSTAIN_ONLY)
    out = tmp_path / "r.html"
    made = run_cli("report", CATALOG, "-o", out, "--query-file", queries, "--no-strategies", "--no-lint")
    assert made.returncode == 0, made.stderr
    page = out.read_text(encoding="utf-8")
    assert f"<p>{html.escape(VERDICT.format(sample='in sample'))}.</p>" in page


def test_report_shows_the_verdict_eval_prints(tmp_path):
    """The report carries the tuning-rule line too, the same line eval prints."""
    queries = SHIPPED / "queries" / "team-workspace-agent.yaml"
    out = tmp_path / "r.html"
    made = run_cli("report", CATALOG, "-o", out, "--query-file", queries, "--no-strategies", "--no-lint")
    assert made.returncode == 0, made.stderr
    page = html.unescape(out.read_text(encoding="utf-8"))
    line = next(t for t in run_cli("eval", CATALOG, queries).stdout.splitlines()
                if t.startswith("in sample, best by the tuning rule"))
    assert line.endswith("agent, 0.753 query recall@5 with 0.950 empty; the highest query recall@5 of all: "
                         "anthropic-bm25, 0.870, with 0.000 of nonsense queries empty")
    assert f"{line}." in page


def test_quality_page_says_why_there_is_no_verdict(tmp_path, monkeypatch):
    folder = tmp_path / "samples"
    (folder / "queries").mkdir(parents=True)
    for path in SHIPPED.glob("*.yaml"):
        (folder / path.name).symlink_to(path)
    write_yaml(folder / "queries" / "team-workspace.yaml", ABSTAIN_ONLY)
    monkeypatch.setattr(common, "SAMPLES_DIR", folder)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    assert not at.exception, at.exception
    assert VERDICT.format(sample="in sample") in [t.value for t in at.text]


def test_eval_json_carries_the_tuning_rule_verdict(tmp_path):
    """eval --json names the variant the tuning rule picks (and the one with the highest query
    recall) beside the line the text output prints, and says whether the figures are in sample."""
    queries = SHIPPED / "queries" / "team-workspace-agent.yaml"
    data = json.loads(run_cli("eval", CATALOG, queries, "--json").stdout)
    text = run_cli("eval", CATALOG, queries).stdout.splitlines()
    rule = data["tuning_rule"]
    assert rule["line"] in text
    assert (rule["target"], rule["best"], rule["highest_query_recall"]) == (0.95, "agent", "anthropic-bm25")
    metrics = {v["name"]: v["metrics"] for v in data["variants"]}
    quiet = {n: m["query_recall_at_5"] for n, m in metrics.items() if m["nonsense_queries_empty"] >= 0.95}
    assert max(quiet, key=quiet.get) == "agent"
    assert data["in_sample"] is True and data["protocol_note"].startswith("in sample") and data["protocol_note"] in text
    # an abstention-only file: no pick, and the line says why
    nothing = json.loads(run_cli("eval", CATALOG, write_yaml(tmp_path / "n.yaml", ABSTAIN_ONLY), "--json").stdout)
    assert nothing["tuning_rule"] == {"target": 0.95, "best": None, "highest_query_recall": None,
                                      "line": VERDICT.format(sample="in sample")}

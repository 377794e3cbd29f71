"""A task that repeats an earlier one (the same queries and expected tools under another id) is
scored twice: ``eval`` and the Quality page say so, naming the first pair."""

from __future__ import annotations

from pathlib import Path

import yaml

from conftest import run_cli, write_yaml
from toolsearch.analysis.evaluation import Task, repeated_tasks

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"

TASKS = {"tasks": [
    {"id": "a", "queries": ["create a GitHub issue", "open an issue"], "expected": ["mcp_github_create_issue"]},
    {"id": "b", "queries": ["Open  an ISSUE", "create a github issue"], "expected": ["mcp_github_create_issue"]},
    {"id": "c", "queries": ["create a GitHub issue"], "expected": ["mcp_github_create_issue"]},  # fewer queries
    {"id": "d", "queries": ["open an issue"], "expected": []},  # another label
    {"id": "e", "queries": ["open an issue"], "expected": []},
]}


def _tasks(spec: dict) -> list[Task]:
    return [Task(t["id"], tuple(t["queries"]), tuple(t["expected"]), "", "") for t in spec["tasks"]]


def test_repeats_compare_queries_as_a_search_reads_them_and_in_any_order() -> None:
    said = repeated_tasks(_tasks(TASKS))
    assert said.startswith("2 tasks repeat an earlier task's queries and expected tools under another id")
    assert "(first: 'b' repeats 'a')" in said
    assert repeated_tasks(_tasks({"tasks": TASKS["tasks"][:1] + TASKS["tasks"][2:4]})) == ""


def test_eval_warns_about_a_repeated_task(tmp_path: Path) -> None:
    assert CATALOG.exists()
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": TASKS["tasks"][:3]})
    result = run_cli("eval", CATALOG, queries, "--variant", "reference")
    assert result.returncode == 0, result.stderr
    assert (f"toolsearch: warning: {queries}: 1 task repeats an earlier task's queries and expected tools under "
            "another id, so its requests count twice in the figures (first: 'b' repeats 'a')") in result.stderr
    clean = write_yaml(tmp_path / "clean.yaml", {"tasks": TASKS["tasks"][:1] + TASKS["tasks"][2:4]})
    assert "repeats" not in run_cli("eval", CATALOG, clean, "--variant", "reference").stderr


def test_quality_page_warns_about_a_repeated_task() -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.ui.quality import UPLOAD

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.selectbox(key="quality_file:team-workspace").set_value(UPLOAD).run()
    at.file_uploader(key="quality_upload").set_value(
        ("q.yaml", yaml.safe_dump(TASKS).encode(), "application/x-yaml")).run()
    at.multiselect(key="quality_variants").set_value(["reference"]).run()
    assert not at.exception, at.exception
    assert any("2 tasks repeat an earlier task" in w.value and "'b' repeats 'a'" in w.value for w in at.warning), \
        [w.value for w in at.warning]

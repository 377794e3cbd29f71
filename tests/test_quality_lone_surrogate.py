"""A query file may spell half of a UTF-16 pair (``"\\ud800"`` in JSON), which no UTF-8 text holds:
``eval --folds`` (which hashes each task's group to its fold) and the Search quality page (which
hashes the file's tasks to key its results) ended with UnicodeEncodeError. The tasks are scored,
and the page shows the id with ``⟨U+D800⟩``."""

from __future__ import annotations

from pathlib import Path

from conftest import literal_tables, run_cli

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ('{"tasks": [{"id": "issue\\ud800", "queries": ["create an issue"], "expected": ["mcp__github__create_issue"]},'
           ' {"id": "post", "queries": ["post a slack message"], "expected": [], "group": "chat\\udc00"},'
           ' {"id": "sentry", "queries": ["find sentry errors"], "expected": [], "group": "mail"}]}')  # 2 folds


def test_eval_by_folds_reads_a_task_group_with_a_lone_surrogate(tmp_path) -> None:
    queries = tmp_path / "q.json"
    queries.write_text(QUERIES, encoding="utf-8")
    done = run_cli("eval", ROOT / "sample_catalogs" / "team-workspace.yaml", queries, "--folds", "2",
                   "--variant", "evidence", "--json")  # a variant with parameters to tune: folds are made
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


def test_quality_page_scores_a_query_file_with_a_lone_surrogate() -> None:
    from streamlit.testing.v1 import AppTest

    from toolsearch.ui.quality import UPLOAD

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.selectbox(key="quality_file:team-workspace").set_value(UPLOAD).run()
    at.file_uploader(key="quality_upload").set_value(("q.json", QUERIES.encode(), "application/json")).run()
    at.multiselect(key="quality_variants").set_value(["reference"]).run()
    assert not at.exception, at.exception
    cells = {str(value) for table in literal_tables(at).values() for value in table.to_numpy().ravel()}
    assert "issue⟨U+D800⟩" in cells, sorted(cells)[:40]

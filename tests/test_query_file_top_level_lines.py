"""A query file's top-level ``name``, ``catalog`` or ``tool_names`` refused says on which line.

``name: 2024-01-01`` (YAML reads it as a date) was refused with the file only; the line to fix is
named now, as a YAML error names it.
"""

from __future__ import annotations

from conftest import ROOT, run_cli

CATALOG = ROOT / "sample_catalogs" / "five-servers.yaml"
TASKS = "tasks:\n  - id: a\n    query: github issue\n    expected: []\n"


def test_a_date_as_the_name_names_its_line(tmp_path):
    queries = tmp_path / "q.yaml"
    queries.write_text("# labeled queries\nname: 2024-01-01\n" + TASKS, encoding="utf-8")
    done = run_cli("eval", CATALOG, queries)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"toolsearch: error: {queries}: line 2: expected 'name' to be a string or a whole number, got a date"]


def test_catalog_and_tool_names_name_their_lines(tmp_path):
    queries = tmp_path / "q.yaml"
    queries.write_text("name: x\ncatalog: [a, b]\n" + TASKS, encoding="utf-8")
    assert run_cli("eval", CATALOG, queries).stderr.splitlines() == [
        f"toolsearch: error: {queries}: line 2: expected 'catalog' to be a string or a whole number, got a list"]
    queries.write_text("name: x\n\ntool_names: short\n" + TASKS, encoding="utf-8")
    assert run_cli("eval", CATALOG, queries).stderr.splitlines() == [
        f"toolsearch: error: {queries}: line 3: tool_names: expected one of prefixed, as-is, got 'short'"]


def test_a_json_file_names_the_line_too(tmp_path):
    queries = tmp_path / "q.json"
    queries.write_text('{\n  "tasks": [{"id": "a", "query": "x", "expected": []}],\n  "name": ["x"]\n}\n',
                       encoding="utf-8")
    assert run_cli("eval", CATALOG, queries).stderr.splitlines() == [
        f"toolsearch: error: {queries}: line 3: expected 'name' to be a string or a whole number, got a list"]

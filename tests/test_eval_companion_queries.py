"""eval without a query file scores the shipped one named like the catalog, the file report finds
on its own (one function: toolsearch.analysis.review.companion_query_file); with none shipped, the
error names the files that ship."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import run_cli, write_yaml

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_catalogs" / "japanese.yaml"
QUERIES = ROOT / "sample_catalogs" / "queries" / "japanese.yaml"


def test_eval_finds_the_query_file_report_finds(tmp_path):
    from toolsearch.analysis.review import companion_query_file

    copy = shutil.copy(SAMPLE, tmp_path / "japanese.yaml")  # found by the catalog's name, wherever it is
    assert companion_query_file([str(copy)]) == QUERIES
    alone = run_cli("eval", copy, "--json", "--variant", "reference", cwd=tmp_path)  # shown whole: outside cwd
    given = run_cli("eval", copy, QUERIES, "--json", "--variant", "reference", cwd=tmp_path)
    assert (alone.returncode, given.returncode) == (0, 0), alone.stderr
    assert json.loads(alone.stdout) == json.loads(given.stdout)
    assert alone.stderr == (f"toolsearch: note: query file {QUERIES} (shipped for this catalog, as report finds it; "
                            "give QUERIES to score another)\n")


def test_eval_without_a_shipped_query_file_names_the_ones_that_ship(tmp_path):
    catalog = write_yaml(tmp_path / "mine.yaml", {"servers": [{"name": "web", "tools": [
        {"name": "fetch", "description": "Fetch a URL.", "inputSchema": {"type": "object"}}]}]})
    done = run_cli("eval", catalog)
    assert (done.returncode, done.stdout) == (2, "")
    shipped = ", ".join(p.stem for p in sorted((ROOT / "sample_catalogs" / "queries").glob("*.yaml")))
    assert done.stderr == ("toolsearch: error: expected a query file (QUERIES or --test FILE): none ships for 'mine' "
                           f"(shipped query files, found by the catalog's name as report finds them: {shipped})\n")

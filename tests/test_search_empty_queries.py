"""search -q '' is dropped by tool_search as the reference drops it (docs/reference.md §6); the CLI
says so, naming each empty query and its place, whether other queries remain or none does."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

CATALOG = Path(__file__).resolve().parent.parent / "sample_catalogs" / "japanese.yaml"


def test_an_empty_query_among_others_is_named_as_skipped() -> None:
    done = run_cli("search", CATALOG, "-q", "", "-q", "other", "--json")
    assert done.returncode == 0, done.stderr
    assert [group["query"] for group in json.loads(done.stdout)["results"]] == ["other"]  # the bridge's answer
    assert done.stderr.splitlines()[0] == (
        "toolsearch: warning: skipped empty query: -q '' (query 1 of 2): tool_search drops a query that is empty "
        "after trimming (docs/reference.md §6) and searched the other 1 query")


def test_only_empty_queries_say_why_the_bridge_errs() -> None:
    done = run_cli("search", CATALOG, "-q", "", "-q", "")
    assert done.returncode == 1
    assert done.stdout.startswith("tool_search error: ")
    assert done.stderr.splitlines()[0] == (
        "toolsearch: warning: skipped empty queries: -q '' (query 1 of 2), -q '' (query 2 of 2): tool_search drops a "
        "query that is empty after trimming (docs/reference.md §6), and with none left it answers with an error")
    assert run_cli("search", CATALOG, "-q", "other").stderr == ""

"""A catalog file's problems are named one by one up to a hundred; past them one problem per
severity counts the rest. A 6 MB file of 2,000,000 tools without a name printed 2,000,000 lines
(245 MB) and held 870 MB; a 64 MiB one would print gigabytes. ``check`` and ``recommend`` still
count every skipped item."""

from __future__ import annotations

import json

from conftest import run_cli
from toolsearch.engine.catalog import MAX_NAMED_PROBLEMS, load_source


def _flood(tmp_path, n: int):
    path = tmp_path / "flood.json"
    tools = [{"description": "x"} if i % 2 else {"name": f"t{i}", "inputSchema": "bad"} for i in range(n)]
    path.write_text(json.dumps({"servers": [{"name": "s", "tools": tools}]}), encoding="utf-8")
    return path


def test_problems_past_the_first_hundred_are_counted_per_severity(tmp_path):
    path = _flood(tmp_path, 5000)
    catalog = load_source(path)
    assert len(catalog.problems) == MAX_NAMED_PROBLEMS + 2
    assert catalog.problems[0].where == f"{path}: servers[0].tools[0].inputSchema"
    assert catalog.problems[MAX_NAMED_PROBLEMS - 1].where == f"{path}: servers[0].tools[99]"
    assert [(p.severity, p.where, p.message, p.count) for p in catalog.problems[MAX_NAMED_PROBLEMS:]] == [
        ("warning", str(path), "2,450 more items repaired past the first 100 problems of this file (counted, not named)", 2450),
        ("error", str(path), "2,450 more items skipped past the first 100 problems of this file (counted, not named)", 2450)]
    assert [len(s.tools) for s in catalog.servers] == [2500]


def test_the_command_line_prints_a_hundred_and_two_lines_and_check_counts_every_error(tmp_path):
    path = _flood(tmp_path, 5000)
    plan = run_cli("plan", path)
    assert plan.returncode == 0, plan.stderr
    assert len([line for line in plan.stderr.splitlines() if line.startswith("toolsearch: catalog ")]) == 102
    check = run_cli("check", path, "--context-lengths", "200k", "--goal", "names")
    assert check.returncode == 2
    assert check.stderr.splitlines()[-1] == (
        f"toolsearch: error: check: 2,500 catalog errors ({path}: servers[0].tools[1] and 2,499 more; above): "
        "what was skipped would be missing from the verdict; fix the catalog file")


def test_a_hundred_problems_or_fewer_are_all_named(tmp_path):
    catalog = load_source(_flood(tmp_path, 100))
    assert len(catalog.problems) == 100 and {p.count for p in catalog.problems} == {1}

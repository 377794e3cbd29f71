"""The first line of toolsearch eval's text report names the query file and the catalog on one
line: a tab or line break in the catalog's name is written as an escape, as lint writes it."""

from __future__ import annotations

from conftest import run_cli, write_yaml


def test_a_catalog_name_with_a_line_break_stays_on_the_first_line(tmp_path):
    catalog = write_yaml(tmp_path / "c.yaml", {"name": "Bad\nname\tX", "servers": [
        {"name": "s", "tools": [{"name": "send_message", "description": "Send a message to a channel"}]}]})
    queries = write_yaml(tmp_path / "q.yaml", {"tasks": [
        {"id": "a", "queries": ["send message"], "expected": ["mcp__s__send_message"]}]})
    result = run_cli("eval", catalog, queries, "--variant", "reference")
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()[:2]
    assert first == ("query file: q (1 task) on catalog Bad⟨U+000A⟩name⟨U+0009⟩X (1 deferred tool, names prefixed); "
                     "limit 5")
    assert second == ""
    lint = run_cli("lint", catalog).stdout.splitlines()[0]
    assert lint.startswith("catalog: Bad⟨U+000A⟩name⟨U+0009⟩X (")

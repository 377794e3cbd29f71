"""An MCP client config's problems (its warnings and its broken entries, in file order) are said
as a catalog file's are: the first hundred named, the rest counted per severity in one line each,
in the same words (:func:`~toolsearch.engine.catalog.more_problems_message`). A config of 200,000
broken entries printed 200,000 failure lines, and took 57 s of CPU and 1.8 GB: each broken entry
was a task of its own waiting for a turn to fail, and each entry read the working directory and the
home folder again. Counts of failed servers still count every one."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from conftest import run_cli
from toolsearch.engine.catalog import MAX_NAMED_PROBLEMS, more_problems_message
from toolsearch.live import client, mcpconfig
from toolsearch.live.client import connect_servers, is_connect_failure
from toolsearch.live.mcpconfig import CONFIG_PROBLEM_WORDS, parse_config_data

ROOT = Path(__file__).resolve().parent.parent


def _flood(n: int) -> dict:
    """``n`` entries: even ones start a program but have a bad ``enabled`` (a warning), odd ones
    are not mappings (a broken entry)."""
    return {"mcpServers": {f"s{i}": {"command": "never-started", "enabled": "maybe"} if i % 2 == 0 else 5
                           for i in range(n)}}


def test_the_first_hundred_problems_are_named_and_the_rest_counted_per_severity():
    config = parse_config_data(_flood(5000), "mcp.json")
    assert len(config.servers) == 5000  # every entry is still a server: it fails, and is counted
    named_warnings = [w for w in config.warnings if "treated as on" in w]
    assert named_warnings[0] == "mcp.json: mcpServers.s0.enabled: expected a boolean, got 'maybe'; treated as on"
    assert len(named_warnings) == 50 and named_warnings[-1].startswith("mcp.json: mcpServers.s98.enabled:")
    broken = [spec for spec in config.servers if spec.invalid]
    assert len(broken) == 2500
    assert [spec.name for spec in broken if not spec.counted_only] == [f"s{i}" for i in range(1, 100, 2)]
    assert config.warnings[50:] == (
        "mcp.json: 2,450 more entries skipped past the first 100 problems of this file (counted, not named)",
        "mcp.json: 2,450 more warnings past the first 100 problems of this file (counted, not named)")
    # the words and the cap are the catalog files' own
    assert config.warnings[50] == f"mcp.json: {more_problems_message('error', 2450, CONFIG_PROBLEM_WORDS)}"
    assert MAX_NAMED_PROBLEMS == 100


def test_a_hundred_problems_or_fewer_are_all_named():
    config = parse_config_data(_flood(100), "mcp.json")  # 50 warnings, 50 broken entries
    assert len(config.warnings) == 50 and not any("more" in w for w in config.warnings)
    assert not any(spec.counted_only for spec in config.servers)


def test_connecting_names_the_first_broken_entries_and_counts_every_failure():
    config = parse_config_data({"mcpServers": {f"s{i}": 5 for i in range(1000)}}, "mcp.json")
    heard = []
    result = connect_servers(config.servers, progress=heard.append)
    assert [status.name for status in heard] == [f"s{i}" for i in range(100)]
    assert {status.state for status in heard} == {"failed"}
    assert len(result.failed) == 1000
    assert sum(is_connect_failure(p) for p in result.catalog.problems) == 1000


def test_a_broken_entry_is_no_task_and_the_file_reads_its_context_once(monkeypatch):
    # what made 200,000 entries slow: a task per broken entry, the working directory read per entry
    contexts = []
    real_context = mcpconfig.context_values
    monkeypatch.setattr(mcpconfig, "context_values", lambda *a, **k: contexts.append(1) or real_context(*a, **k))
    config = parse_config_data({"mcpServers": {f"s{i}": {"args": ["x"]} for i in range(500)}}, "mcp.json")
    assert len(contexts) == 1
    started = []
    real_connect = client._connect_one
    monkeypatch.setattr(client, "_connect_one", lambda *a, **k: started.append(1) or real_connect(*a, **k))
    assert len(connect_servers(config.servers).failed) == 500
    assert started == []
    holder = client.LiveConnections()
    try:
        assert len(holder.connect(config.servers).failed) == 500
    finally:
        holder.close()
    assert started == []


def test_the_command_line_says_a_hundred_and_one_lines_and_snapshot_records_every_failure(tmp_path):
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {f"s{i}": {"args": ["x"]} for i in range(3000)}}), encoding="utf-8")
    out = tmp_path / "snap.yaml"
    result = run_cli("snapshot", path, "-o", out)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert sum(line.startswith("toolsearch: live: s") for line in lines) == 100
    assert f"toolsearch: warning: {path}: 2,900 more entries skipped past the first 100 problems of this file " \
           "(counted, not named)" in lines
    assert len(lines) == 102  # and the line that says what was written
    assert len(yaml.safe_load(out.read_text(encoding="utf-8"))["snapshot"]["failed"]) == 3000


def test_the_live_servers_page_shows_the_first_hundred_problems_of_an_upload_and_counts_the_rest():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "live.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="live_config_upload").set_value(("mcp.json", json.dumps(_flood(300)).encode(),
                                                          "application/json"))
    at.run()
    assert not at.exception, at.exception
    warnings = [w.value.replace("\\", "") for w in at.warning]  # shown as Markdown, escaped
    assert sum("treated as on" in w for w in warnings) == 50
    assert "mcp.json: 100 more entries skipped past the first 100 problems of this file (counted, not named)" in warnings
    assert "mcp.json: 100 more warnings past the first 100 problems of this file (counted, not named)" in warnings
    assert len(warnings) == 52

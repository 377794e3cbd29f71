"""Counts of a thousand or more read with a thousands separator in every text line of the CLI, as
the rest of each output writes them (``3,300 tools``), never ``3300`` beside it."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli, write_yaml

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = ROOT / "sample_sessions" / "state.db"


def _big_catalog(tmp_path: Path, count: int = 1_200) -> Path:
    tools = [{"name": f"record_{i:04d}_update", "description": f"Update record {i:04d} of the ledger."}
             for i in range(count)]
    return write_yaml(tmp_path / "big.yaml", {"name": "Big", "servers": [{"name": "ledger", "tools": tools}]})


def test_plan_counts_deferred_tools_with_separator(tmp_path):
    result = run_cli("plan", _big_catalog(tmp_path), "--context-length", "200k")
    assert result.returncode == 0, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("tier "))
    assert line.endswith("; 1,200 deferred, 0 visible"), line
    # with tool search off nothing is deferred, as the app and the report say (every tool is visible)
    off = run_cli("plan", _big_catalog(tmp_path), "--context-length", "200k", "--enabled", "off")
    line = next(line for line in off.stdout.splitlines() if line.startswith("tier "))
    assert line.endswith("; 0 deferred (tool search is not active: 1,200 could be), 1,200 visible"), line


def test_explain_counts_excluded_and_documents_with_separator(tmp_path):
    result = run_cli("explain", _big_catalog(tmp_path), "-q", "update ledger zebra")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "N = 1,200 documents, avgdl" in next(line for line in lines if line.startswith("N = "))
    excluded = next(line for line in lines if line.startswith("excluded: "))
    assert "1200" not in excluded and "1,200 by the" in excluded, excluded


def test_sessions_header_counts_deferred_tools_with_separator(tmp_path):
    result = run_cli("sessions", SESSIONS, "--catalog", _big_catalog(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "(1,200 deferred tools, names prefixed)" in result.stdout.splitlines()[0], result.stdout.splitlines()[0]

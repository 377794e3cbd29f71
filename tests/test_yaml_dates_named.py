"""A YAML value read as a date (an unquoted ``2024-01-01``) where text belongs is named as a date,
with what to do, not as Python code: an events file's search said ``got datetime.date(2024, 1, 1)``
and a scope file's date-named scope ``expected a non-empty scope name``."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

CATALOG = str(Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml")
HINT = "the date 2024-01-01 (put it in quotes to keep it as text)"


def test_an_events_file_names_a_date(tmp_path) -> None:
    events = tmp_path / "events.yaml"
    events.write_text("- {search: 2024-01-01}\n", encoding="utf-8")
    result = run_cli("strategies", CATALOG, "--events", events)
    assert result.returncode == 0, result.stderr  # a bad event is skipped with its place; the rest replay
    assert result.stderr == (f"toolsearch: warning: {events}: [0].search: expected a query (or regex pattern) as a "
                             f"non-empty string, got {HINT}; event skipped\n")


def test_a_scope_file_names_a_date(tmp_path) -> None:
    scopes = tmp_path / "scopes.yaml"
    scopes.write_text("scopes:\n  2024-01-01: {servers: [github]}\n", encoding="utf-8")
    result = run_cli("plan", CATALOG, "--scope-file", scopes)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (f"toolsearch: error: {scopes}: no usable scope in the file (scopes.2024-01-01: "
                             f"expected a non-empty scope name, got {HINT}; scope skipped)\n")

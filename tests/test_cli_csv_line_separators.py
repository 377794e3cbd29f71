"""``costs --csv`` and ``sweep --csv`` write the line and paragraph separators U+2028 and U+2029
in a name as the markers the text output shows (``⟨U+2028⟩``), as ``--json`` escapes them: a
spreadsheet shows no break there and an editor starts a line. A newline and a tab stay (CSV quotes
the cell)."""

from __future__ import annotations

import csv
import io
import json

from conftest import run_cli

LS, PS = "\u2028", "\u2029"
NAME = f"a{LS}b{PS}c\nd\te"
SHOWN = "a⟨U+2028⟩b⟨U+2029⟩c\nd\te"


def _catalog(tmp_path):
    path = tmp_path / "seps.json"
    path.write_text(json.dumps({"servers": [{"name": NAME, "tools": [
        {"name": f"t{LS}x", "description": "d", "inputSchema": {"type": "object"}}]}]}), encoding="utf-8")
    return path


def test_costs_csv_marks_line_and_paragraph_separators(tmp_path) -> None:
    done = run_cli("costs", _catalog(tmp_path), "--csv")
    assert done.returncode == 0, done.stderr
    assert LS not in done.stdout and PS not in done.stdout
    rows = list(csv.reader(io.StringIO(done.stdout)))
    assert SHOWN in [cell for row in rows for cell in row], rows
    # the text table and --json agree: the text marks them, JSON escapes them
    text = run_cli("costs", _catalog(tmp_path)).stdout
    assert "a⟨U+2028⟩b⟨U+2029⟩c" in text and LS not in text
    raw = run_cli("costs", _catalog(tmp_path), "--json").stdout
    assert "\\u2028" in raw and LS not in raw


def test_sweep_csv_marks_them_in_a_column_name(tmp_path) -> None:
    done = run_cli("sweep", _catalog(tmp_path), "--context-lengths", "32k", "--csv")
    assert done.returncode == 0, done.stderr
    assert LS not in done.stdout and PS not in done.stdout

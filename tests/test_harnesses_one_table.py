"""``toolsearch harnesses`` and the Harnesses page show one context length's rows the same way,
from :mod:`toolsearch.analysis.harnesses` (``length_heading``, ``ROW_COLUMNS``, ``row_cells``):
the command wrote ``-`` where the page wrote ``—`` for "no flip point", marked a modelled row with
a "(model)" suffix where the page has a ``kind`` column, and headed the rows ``context length
200,000`` where the page said ``At 200,000 tokens``; a context length is written compact
(``200K``), as in every sentence of the product. The pins' rows name a harness one way too."""

from __future__ import annotations

from pathlib import Path

from conftest import literal_tables, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis import harnesses as H

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
LENGTHS = (200_000, 1_000_000)  # the page's default lengths


def cli_tables(out: str) -> dict[str, list[list[str]]]:
    """``{heading: rows of cells}`` from the text output: each table is the line after a heading,
    a dashed rule whose runs give the columns, then rows up to the first indented line."""
    lines = out.splitlines()
    tables: dict[str, list[list[str]]] = {}
    for i, line in enumerate(lines):
        if i + 2 < len(lines) and set(lines[i + 2]) <= {"-", " "} and lines[i + 2].startswith("-"):
            rule = lines[i + 2]
            starts = [j for j, ch in enumerate(rule) if ch == "-" and (j == 0 or rule[j - 1] == " ")]
            spans = list(zip(starts, [*starts[1:], None]))
            rows = []
            for row in [lines[i + 1], *lines[i + 3:]]:
                if not row or row.startswith(" "):
                    break
                rows.append([row[a:b].strip() for a, b in spans])
            tables[line] = rows
    return tables


def test_the_command_and_the_page_show_one_lengths_rows_alike() -> None:
    done = run_cli("harnesses", CATALOG, "--context-lengths", ",".join(map(str, LENGTHS)))
    assert done.returncode == 0, done.stderr
    tables = cli_tables(done.stdout)
    assert list(tables) == ["At 200K", "At 1M"], list(tables)
    assert [H.length_heading(n) for n in (12_345, 1)] == ["At 12,345 tokens", "At 1 token"]

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"catalog": CATALOG.name})
    at.run()
    at.switch_page("toolsearch/ui/harnesses.py").run()
    assert not at.exception, at.exception
    assert [s.value for s in at.subheader][:2] == list(tables)
    shown = literal_tables(at)
    for length, heading in zip(LENGTHS, tables):
        header, *rows = tables[heading]
        page = shown[f"harness_rows_{length}"]
        assert header == list(H.ROW_COLUMNS) == list(page.columns)
        assert rows == page.values.tolist()
        assert "kind" in header and not [r for r in rows if "(model)" in r[0]]
        flips = [r[header.index(H.FLIP_COLUMN)] for r in rows]
        assert H.NO_FLIP in flips and "-" not in flips  # Hermes never flips


def test_the_pins_name_a_harness_alike() -> None:
    done = run_cli("harnesses", CATALOG, "--context-lengths", "200k", "--pin-server", "github")
    assert done.returncode == 0, done.stderr
    pins = [line.strip() for line in done.stdout.splitlines() if line.startswith("  pins, ")]
    assert [p.split(":")[0] for p in pins] == ["pins, Claude Code", "pins, Hermes Agent (not released)"], pins
    assert "[not in released Hermes]" not in done.stdout

"""A tool or server name 100,000 characters long was quoted whole in ``plan``'s "clamped to" note
and in every ``lint`` line naming it (lines of 100,000-400,000 characters). Such a name is now
quoted cut, with a visible ``…`` and its length (:func:`toolsearch.engine.invisible.quoted_short`),
on the command line and in the app's tables alike; ``--json`` keeps the whole names."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import run_cli

from toolsearch.analysis.lint import lint
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.invisible import quoted_short, shortened

TOOL = "t" + "c" * 100_000          # 100,001 characters
SERVER = "s" + "b" * 100_000        # 100,001 characters
LONGEST_LINE = 1_000


@pytest.fixture()
def long_names(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(yaml.safe_dump({"servers": [
        {"name": "gh", "tools": [{"name": TOOL, "description": "Open an issue.", "inputSchema": {"type": "object"}}]},
        {"name": SERVER, "tools": [{"name": "get_item", "description": "Read an item.",
                                    "inputSchema": {"type": "object"}}]}]}), encoding="utf-8")
    return path


def test_quoted_short_cuts_with_an_ellipsis_and_the_length() -> None:
    assert quoted_short("abc") == "'abc'"
    assert quoted_short("x" * 200) == "'" + "x" * 200 + "'"  # every name a harness accepts, and more, whole
    assert quoted_short("x" * 201) == "'" + "x" * 199 + "…' (201 characters)"
    assert quoted_short("a\x1b" + "z" * 200, limit=4) == "'a⟨U+001B⟩z…' (202 characters)"  # controls still shown
    assert shortened(TOOL) == "t" + "c" * 198 + "… (100,001 characters)"
    assert quoted_short(5) == "5"


def test_plan_clamped_to_note_quotes_a_long_name_cut(long_names) -> None:
    result = run_cli("plan", long_names)
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stdout.splitlines() if line.startswith("note: ")]
    assert f"server 'gh': tool 't{'c' * 198}…' (100,001 characters): prefixed name is over 64 characters; clamped to " \
           "'mcp__gh__t" in notes[0], notes
    assert f"server 's{'b' * 198}…' (100,001 characters): tool 'get_item': prefixed name is over 64" in notes[1], notes
    assert max(map(len, notes)) < LONGEST_LINE


def test_lint_lines_name_long_names_cut(long_names) -> None:
    result = run_cli("lint", long_names)
    lines = result.stdout.splitlines()
    assert lines and max(map(len, lines)) < LONGEST_LINE, [len(line) for line in lines]
    assert (f"warning: name-over-64: gh/t{'c' * 198}… (100,001 characters): prefixed name "
            f"'mcp__gh__t{'c' * 189}…' (100,010 characters); the reference clamps it to 'mcp__gh__t") in result.stdout
    data = json.loads(run_cli("lint", long_names, "--json").stdout)
    assert TOOL in {f["tool"] for f in data["findings"]} and SERVER in {f["server"] for f in data["findings"]}


def test_the_app_lint_table_names_them_as_the_cli_does(long_names) -> None:
    # Imported here, not at the top: the Search quality page is a view script, and importing it runs
    # the page (an evaluation and a lint of the default catalog, about 1.7 s of CPU), which every
    # test process would otherwise pay while collecting.
    from toolsearch.ui.quality import lint_rows  # noqa: PLC0415

    report = lint(Inspector.from_files([long_names], naming="as-is"), parse_config({}))
    rows = lint_rows(report, ["error", "warning", "info"], [])
    assert rows
    for row in rows:
        assert len(row["where"]) < LONGEST_LINE and len(row["finding"]) < LONGEST_LINE, row["rule"]
    assert any(row["where"].startswith(f"t{'c' * 198}… (100,001 characters)") for row in rows), [r["where"][:120] for r in rows]


def test_the_report_lint_table_names_them_as_the_cli_does(long_names) -> None:
    from toolsearch.analysis.report import build_report  # noqa: PLC0415

    ins, config = Inspector.from_files([long_names]), parse_config({})
    html_text = build_report(ins, config, 200_000, context_lengths=[200_000], threshold_pcts=[5.0],
                             lint_report=lint(ins, config))
    start = html_text.index("<h2>Lint</h2>")
    lint_html = html_text[start:html_text.index("<h2>", start + 1)]
    assert TOOL not in lint_html and SERVER not in lint_html
    assert f"<td>t{'c' * 198}… (100,001 characters)</td>" in lint_html

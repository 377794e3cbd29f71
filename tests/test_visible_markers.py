"""One visible form for a control or invisible character on every surface: a catalog whose tool
name and description hold ESC, a zero-width space and a newline reads the same through the
``toolsearch`` commands, the HTML report and the app (AppTest): ESC as ``⟨U+001B⟩`` (never ``\\x1b``
or a raw ESC), the zero-width space as ``⟨U+200B⟩``, and a newline in a name (a place that is one
line: a table cell, a result line, an error line) as ``⟨U+000A⟩``."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import literal_tables, run_cli
from toolsearch.engine.invisible import marker, mark_controls, quoted, reveal, reveal_line
from toolsearch.ui import common

ROOT = Path(__file__).resolve().parent.parent
ESC, ZW, NL = "\x1b", "\u200b", "\n"
ODD = f"bad{ESC}[31mname{ZW}x"          # a tool name with ESC and a zero-width space
TWO = f"two{NL}lines"                   # a tool name with a newline
ODD_SHOWN = "bad⟨U+001B⟩[31mname⟨U+200B⟩x"
TWO_SHOWN = "two⟨U+000A⟩lines"
#: the listing line of the ESC tool: the listing makes the description's newline a space
LISTING_LINE = "- bad⟨U+001B⟩[31mname⟨U+200B⟩x: Line one⟨U+001B⟩[2J⟨U+200B⟩ hidden line two."
CATALOG = {"name": "Odd names", "servers": [{"name": "srv", "tools": [
    {"name": ODD, "description": f"Line one{ESC}[2J{ZW} hidden{NL}line two.", "inputSchema": {"type": "object"}},
    {"name": TWO, "description": "Has a\nbreak.", "inputSchema": {"type": "object"}},
    {"name": "plain", "description": "Plain tool.", "inputSchema": {"type": "object"}}]}]}


@pytest.fixture()
def catalog(tmp_path) -> Path:
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(CATALOG), encoding="utf-8")
    return path


def _no_raw(text: str) -> None:
    assert ESC not in text and ZW not in text, text
    assert "\\x1b" not in text and "\\u200b" not in text and "\\x0a" not in text, text


def test_one_marker_per_character() -> None:
    assert marker(ESC) == "⟨U+001B⟩" and marker(ZW) == "⟨U+200B⟩" and marker(NL) == "⟨U+000A⟩"
    assert reveal(ODD) == ODD_SHOWN == reveal_line(ODD) == mark_controls(reveal(ODD))
    assert reveal(TWO) == TWO  # a description keeps its line breaks
    assert reveal_line(TWO) == TWO_SHOWN == mark_controls(TWO, one_line=True)
    assert mark_controls(ODD) == "bad⟨U+001B⟩[31mname\u200bx"  # controls only: a format character stays
    assert quoted(ODD) == f"'{ODD_SHOWN}'" and quoted(None) == "None"
    assert reveal_line("a\tb\u2028c\x9b") == "a⟨U+0009⟩b⟨U+2028⟩c⟨U+009B⟩"


def test_cli_commands_show_the_markers(catalog) -> None:
    plan = run_cli("plan", catalog, "--tool-names", "as-is")
    assert plan.returncode == 0, plan.stderr
    assert LISTING_LINE in plan.stdout.splitlines()
    search = run_cli("search", catalog, "-q", "lines", "--tool-names", "as-is")
    assert search.returncode == 0, search.stderr
    results = [line.split("  [")[0] for line in search.stdout.splitlines() if re.match(r"  \d\. ", line)]
    assert results == [f"  1. {ODD_SHOWN}", f"  2. {TWO_SHOWN}"]
    lint = run_cli("lint", catalog, "--tool-names", "as-is")
    assert f"error: name-invalid: srv/{ODD_SHOWN}: name '{ODD_SHOWN}' (14 characters) does not match" in lint.stdout
    assert f"error: name-invalid: srv/{TWO_SHOWN}: name '{TWO_SHOWN}' (9 characters) does not match" in lint.stdout
    # an error line quotes what was typed with the same markers, on one line
    typed = run_cli("plan", catalog, "--listing", ODD)
    assert typed.returncode == 2
    assert typed.stderr.startswith("toolsearch plan: error: argument --listing: invalid choice: "
                                   f"'{ODD_SHOWN}' (choose from ")
    unknown = run_cli("describe", catalog, "--tool-names", "as-is", TWO)
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    assert unknown.stderr.startswith(f"toolsearch: error: unrecognized arguments: {TWO_SHOWN}; ")
    described = run_cli("describe", catalog, ODD, "--sent", "--tool-names", "as-is")
    assert described.stdout.splitlines()[0] == f"{ODD_SHOWN} (server 'srv', mcp; the server calls it '{ODD_SHOWN}')"
    for done in (plan, search, lint, typed, unknown, described):
        _no_raw(done.stdout + done.stderr)


def test_cli_csv_cells_show_the_markers(tmp_path) -> None:
    catalog = tmp_path / "servers.json"
    catalog.write_text(json.dumps({"servers": [{"name": f"s{ESC}[2J{NL}x", "tools": [
        {"name": "t", "description": "d", "inputSchema": {"type": "object"}}]}]}), encoding="utf-8")
    done = run_cli("costs", catalog, "--csv")
    assert done.returncode == 0, done.stderr
    assert '"s⟨U+001B⟩[2J\nx"' in done.stdout  # CSV quotes the newline; ESC is the marker
    assert ESC not in done.stdout and "\\x1b" not in done.stdout


def test_report_shows_the_markers(catalog, tmp_path) -> None:
    out = tmp_path / "report.html"
    done = run_cli("report", catalog, "--tool-names", "as-is", "-o", out, "--no-strategies")
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    body = page[page.index("<body"):]
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    assert LISTING_LINE in text.splitlines()
    cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)]
    assert ODD_SHOWN in cells and TWO_SHOWN in cells  # the lint table's tool column, one line each
    assert f"name '{ODD_SHOWN}' (14 characters) does not match" in text
    _no_raw(text)


def test_app_shows_the_markers(catalog) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("odd.json", catalog.read_bytes())]
    at.session_state["naming"] = "as-is"
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/costs.py").run()
    at.session_state["costs_tools_tab"] = "Table"
    at.run()
    assert not at.exception, at.exception
    tools = list(literal_tables(at)["costs_tools_table"]["tool"])
    assert sorted(tools) == sorted([ODD_SHOWN, TWO_SHOWN, "plain"])
    at.switch_page("toolsearch/ui/model_view.py").run()
    assert not at.exception, at.exception
    codes = [c.value for c in at.code]
    assert any(LISTING_LINE in code.splitlines() for code in codes), codes
    for code in codes:
        assert ESC not in code and ZW not in code

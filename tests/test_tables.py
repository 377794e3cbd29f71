"""Literal-text tables (toolsearch/ui/tables.py): catalog text stays literal, invisible characters show,
numbers are grouped and never wrapped, and the AppTest reader gives back the text as shown."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import pandas as pd

from conftest import literal_tables
import pytest

from toolsearch.ui.tables import STACK_BELOW_PX, cell_text, table_html

HOSTILE = "<script>alert(1)</script> **bold** [x](https://e.com) $x$ :red[y] a\u200bb"


def test_cells_are_escaped_and_invisible_characters_marked():
    body = table_html([{"tool": HOSTILE, "tokens": 29_700}], key="t")
    assert "<script>" not in body and "&lt;script&gt;alert(" in body and "&lt;/script&gt;" in body
    assert "**bold** [x](https://e.com) $x$ :red[y]" in body  # no markdown: st.html never renders it
    assert "a⟨U+" in body and "\u200b" not in body
    assert '<td class="n">29,700</td>' in body  # numbers: grouped, right-aligned, never wrapped


def test_column_headings_are_escaped_and_invisible_characters_marked():
    # A heading can be catalog text too: the Scopes page's matrix has one column per scope name.
    body = table_html([{"server": "github", HOSTILE: "all"}], key="t")
    assert "<script>" not in body and "&lt;script&gt;alert(" in body
    assert "a⟨U+" in body and "\u200b" not in body
    table = literal_tables(SimpleNamespace(html=[SimpleNamespace(value=body)]))["t"]
    assert list(table.columns) == ["server", HOSTILE.replace("\u200b", "⟨U+200B⟩")]


def test_numbers_inside_text_are_kept_on_one_line():
    body = table_html([{"context length": "1,000,000 tokens", "change": "1,473 → 1,512", "q": "it's 5"}], key="t")
    assert '<td><span class="nb">1,000,000</span> tokens</td>' in body
    assert '<span class="nb">1,473</span> → <span class="nb">1,512</span>' in body
    assert "it's <span" in body  # quotes need no escaping in cell text (no entity digits to wrap)
    body = table_html([{"setting": "schemaTokens=5%", "tokenizer": "o200k_base"}], key="t", nowrap=("tokenizer",))
    assert 'schemaTokens=<span class="nb">5%</span>' in body  # a percent sign never starts a line
    assert '<td class="c">o<span class="nb">200</span>k_base</td>' in body  # nowrap: one line, no <wbr>
    assert 'data-table="t"' in body


def test_cell_text_formats():
    assert [cell_text(v) for v in (None, math.nan, pd.NA, True, False, 1234567, 2.5, 3.0, math.inf)] == [
        "—", "—", "—", "yes", "no", "1,234,567", "2.500", "3", "Infinity"]
    assert cell_text(0.53333, "{:.3f}") == "0.533"
    assert cell_text("x", "{:.3f}") == "x"  # formats apply to numbers only
    assert cell_text(pd.Series([7], dtype="int64")[0]) == "7"  # numpy integers and booleans too
    assert cell_text(pd.Series([True])[0]) == "yes"


def test_styles_nowrap_and_minimum_widths():
    body = table_html([{"state": "names", "why": "w " * 30, "name": "mcp__github__create_issue"}], key="s",
                      styles={"state": lambda v: "background-color: #123456"}, nowrap=("state",),
                      cell_css=lambda row, column: "font-weight:700" if column == "why" else "")
    assert '<td class="c" style="background-color: #123456">names</td>' in body
    assert '<td style="font-weight:700">' in body
    # Short words only: no minimum (the browser sizes the column to its longest word); prose at
    # least 12 characters × 1.2 ch. An underscore is a break point, so the name has no long word.
    assert '<th><div>state</div></th>' in body and '<th><div>name</div></th>' in body
    assert '<th><div style="min-width:14.4ch">why</div></th>' in body
    assert "<td>mcp__<wbr>github__<wbr>create_<wbr>issue</td>" in body


def test_reader_gives_back_the_text_as_shown():
    rows = [{"tool": HOSTILE, "n": 1_000}, {"tool": "two\nlines", "n": None}]
    element = SimpleNamespace(value=table_html(rows, key="k"))
    table = literal_tables(SimpleNamespace(html=[element]))["k"]
    assert list(table.columns) == ["tool", "n"]
    assert table.to_dict("records") == [{"tool": HOSTILE.replace("\u200b", "⟨U+200B⟩"), "n": "1,000"},
                                        {"tool": "two\nlines", "n": "—"}]


def test_only_words_longer_than_twelve_characters_may_break_anywhere():
    columns = {f"column-with-a-long-name-{i}": "x" * 12 for i in range(9)}
    body = table_html([columns], key="wide")
    # every word (split at spaces, hyphens, slashes, underscores) has 12 characters or fewer: the
    # cells wrap only between words, no minimum is set and nothing is scaled down to fit
    assert "min-width" not in body and 'class="b"' not in body
    body = table_html([{"tool": "synchronizecredentials (a long name)", "path": "~/skills/web-research/SKILL.md",
                        "args": "organizationSlug, naturalLanguageQuery"}], key="long")
    assert '<th class="b"' not in body
    assert '<th><div style="min-width:14.4ch">tool</div></th>' in body  # one 22-character word
    assert '<td class="b">synchronizecredentials (a long name)</td>' in body
    assert '<th><div>path</div></th>' in body  # the path breaks after its slashes
    assert "<td>~/<wbr>skills/<wbr>web-research/<wbr>SKILL.md</td>" in body
    # a long camelCase identifier breaks between its words, not anywhere (no class b); its column
    # keeps the minimum width of a column with a long word
    assert '<th><div style="min-width:14.4ch">args</div></th>' in body
    assert "<td>organization<wbr>Slug, natural<wbr>Language<wbr>Query</td>" in body


def test_formatted_numbers_are_right_aligned_like_numbers():
    """A value already formatted as one number (``1,473``, ``83.33%``, ``0.4 s``) is aligned and
    kept on one line like a number; text that only contains digits is not."""
    html_text = table_html([{"count": "1,473", "share": "83.33%", "time": "0.4 s", "name": "v1.2.3",
                             "range": "1/2", "raw": 12}], key="t")
    cells = re.findall(r"<td([^>]*)>(.*?)</td>", html_text)
    aligned = {re.sub(r"<[^>]+>", "", text): 'class="n"' in attrs for attrs, text in cells}
    assert aligned == {"1,473": True, "83.33%": True, "0.4 s": True, "v1.2.3": False, "1/2": False, "12": True}


def test_stacked_columns_go_under_their_row_on_a_narrow_table():
    rows = [{"rank": 1, "tool": "mcp__a__b", "score": 2.5, "description": "Open an issue."}]
    body = table_html(rows, key="t", stack=("description",), stack_tracks="auto 20ch auto")
    # a size container whose grid (below STACK_BELOW_PX) has the three other columns, the row two lines high
    assert '<div class="ts-table ts-stack" data-table="t" style="--ts-tracks:auto 20ch auto;--ts-lines:2">' in body
    assert f"@container (max-width:{STACK_BELOW_PX}px)" in body
    assert ('<tr><td class="n">1</td><td class="t">mcp__<wbr>a__<wbr>b</td><td class="n t">2.500</td>'
            '<td class="s">Open an issue.</td></tr>') in body
    assert '<th class="s"><div>description</div></th>' in body
    # the rows and cells are the same as unstacked: the reader gives back the same table
    plain = table_html(rows, key="t")
    assert 'class="ts-table"' in plain and "--ts-" not in plain.split("</style>")[1]
    read = [literal_tables(SimpleNamespace(html=[SimpleNamespace(value=b)]))["t"].to_dict("records") for b in (body, plain)]
    assert read[0] == read[1] == [{"rank": "1", "tool": "mcp__a__b", "score": "2.500", "description": "Open an issue."}]
    # two stacked columns: the first has no rule under it, the row is three lines high
    two = table_html([{**rows[0], "fix": "x"}], key="t", stack=("description", "fix"))
    assert "--ts-tracks:auto auto auto;--ts-lines:3" in two and '<td class="s t">Open an issue.</td><td class="s">x</td>' in two


def test_only_the_last_columns_can_be_stacked():
    with pytest.raises(ValueError, match="must be the last columns"):
        table_html([{"rank": 1, "description": "d", "tool": "x"}], key="t", stack=("description",))
    with pytest.raises(ValueError, match="must be the last columns"):
        table_html([{"rank": 1, "description": "d"}], key="t", stack=("description",))


def test_the_app_guide_gives_the_width_below_which_columns_stack():
    from pathlib import Path

    guide = " ".join((Path(__file__).parent.parent / "docs" / "app.md").read_text(encoding="utf-8").split())
    assert f"(the table under {STACK_BELOW_PX} px wide)" in guide

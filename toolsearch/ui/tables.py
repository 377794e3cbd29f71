"""Literal-text tables: every cell readable in full at any page width, no hovering.

``st.dataframe`` draws on a canvas and cuts a cell at its column width; ``st.table`` renders its
cells as Markdown. :func:`literal_table` renders a plain HTML table through ``st.html`` instead:
every value is HTML-escaped (so catalog text is shown literally, never as Markdown or HTML) and
passed through :func:`toolsearch.ui.text.visible` (invisible characters shown as markers); text wraps
at spaces, hyphens, slashes and underscores (and a long camelCase word between its words), never
inside a short word; only a word longer than :data:`WORD_CH` characters (a long tool name) may break
anywhere; numbers are never wrapped or cut.
"""

from __future__ import annotations

import html
import math
import numbers
import re
from typing import Any, Callable, Mapping

import numpy as np
import pandas as pd
import streamlit as st

from toolsearch.analysis.quantities import form_word, mixed_label_words
from toolsearch.ui.text import visible

#: Above this many rows a table scrolls vertically inside a box of this height (px); the header
#: stays in view. A table scrolls sideways only when its columns' minimum widths do not fit the
#: page (a short word is never broken to make it fit); no cell is ever cut.
SCROLL_ROWS = 15
SCROLL_HEIGHT = 560
#: Above this many rows, one page of rows at a time (a page picker under the table).
PAGE_ROWS = 200
#: A table narrower than this (px) shows its ``stack`` columns (long prose such as a description)
#: each on a line of its own under the rest of the row, as wide as the table but its first column,
#: instead of as a narrow column of tall cells: at 1024 px with the sidebar open a six-column table
#: is about 530 px wide, and a description column beside five others gets a fifth of that.
STACK_BELOW_PX = 760

_STYLE = """<style>
.ts-table{border:1px solid rgba(49,51,63,.2);border-radius:.5rem;overflow-x:auto;overflow-y:auto}
.ts-table table{border-collapse:collapse;width:100%;font-size:.875rem;line-height:1.35}
.ts-table th,.ts-table td{border-bottom:1px solid rgba(49,51,63,.1);border-right:1px solid rgba(49,51,63,.1);
  padding:.3rem .4rem;text-align:left;vertical-align:top;white-space:pre-wrap;overflow-wrap:normal}
.ts-table .b{overflow-wrap:anywhere}
.ts-table th{position:sticky;top:0;background:#f6f6f8;font-weight:600;color:#31333f;z-index:1}
.ts-table td.n{white-space:nowrap;text-align:right;font-variant-numeric:tabular-nums;overflow-wrap:normal}
.ts-table td.c,.ts-table .nb{white-space:nowrap;overflow-wrap:normal}
.ts-stack,.ts-tight{container-type:inline-size}
@container (max-width:""" + str(STACK_BELOW_PX) + """px){
  .ts-tight th,.ts-tight td{padding-left:.25rem;padding-right:.25rem}
}
@container (max-width:""" + str(STACK_BELOW_PX) + """px){
  .ts-stack table{display:grid;grid-template-columns:var(--ts-tracks)}
  .ts-stack thead,.ts-stack tbody,.ts-stack tr{display:contents}
  .ts-stack th,.ts-stack td{width:auto!important}
  .ts-stack th:first-child,.ts-stack td:first-child{grid-row:span var(--ts-lines)}
  .ts-stack .s{grid-column:2/-1;contain:inline-size}
  .ts-stack th.s{position:static}
  .ts-stack th.t,.ts-stack td.t{border-bottom-color:transparent}
}
</style>"""


#: Text that reads as one number: ``1,473``, ``-2.5``, ``83.33%``, ``0.1 s`` (a value already formatted).
_NUMBER_TEXT = re.compile(r"[−-]?\d[\d,]*(\.\d+)?\s?(%|ms|s|KiB|MB)?")


def _is_number(value: Any) -> bool:
    """A number, or text that is one number already formatted: right-aligned, never wrapped."""
    if isinstance(value, str):
        return _NUMBER_TEXT.fullmatch(value.strip()) is not None
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def cell_text(value: Any, fmt: str | Callable[[Any], str] | None = None) -> str:
    """A cell's text: ``None``/NaN → ``—``, integers with thousands separators (``29,700``),
    booleans as ``yes``/``no``, strings with invisible characters shown as markers."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if value is pd.NA:
        return "—"
    if fmt is not None and not isinstance(value, str):
        return fmt(value) if callable(fmt) else fmt.format(value)
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    if isinstance(value, numbers.Real):
        value = float(value)
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return f"{value:,.0f}" if value.is_integer() else f"{value:,.3f}"
    return str(visible(str(value)))


#: A word (a run of text between spaces, hyphens, slashes and underscores) of up to this many
#: characters is never broken inside; a longer one (a long tool name, a path) may break anywhere.
#: A prose column (cells of 40 or more characters) is at least :data:`PROSE_CH` characters wide.
WORD_CH = 12
PROSE_CH = 12
#: Letters are wider than the digit zero that defines the ``ch`` unit.
CH_PER_CHARACTER = 1.2
#: Where a line may break inside a cell: after a space, a hyphen, a slash or an underscore (the
#: browser breaks at spaces and hyphens itself; underscores and a path's slashes get a ``<wbr>``).
_WORD_BREAK = re.compile(r"\s+|(?<=[-/_])")


#: Inside a run of more than :data:`WORD_CH` letters, a lower-case letter followed by a capital: a
#: camelCase identifier (``naturalLanguageQuery``) breaks there, between its words, not anywhere.
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_LONG_LETTERS = re.compile(r"[A-Za-z]{%d,}" % (WORD_CH + 1))


def _words(text: str) -> list[str]:
    """The pieces of ``text`` a line never breaks inside (unless one is longer than :data:`WORD_CH`)."""
    return [piece for w in _WORD_BREAK.split(text) if w
            for piece in _camel_marked(w, "\0").split("\0") if piece]


def _camel_marked(text: str, mark: str) -> str:
    """``text`` with ``mark`` between the words of each camelCase run of more than :data:`WORD_CH` letters."""
    return _LONG_LETTERS.sub(lambda m: _CAMEL.sub(mark, m.group(0)), text)


def _has_long_word(text: str) -> bool:
    return any(len(w) > WORD_CH for w in _words(text))


def _min_ch(header: str, cells: list[str]) -> float:
    """The minimum width of a column in ``ch``, or 0 when the browser's own minimum is right.

    A column whose words are all at most :data:`WORD_CH` characters needs none: its cells never
    break inside a word (``overflow-wrap: normal``), so the browser sizes the column to its longest
    word, measured in the real font. A column holding a longer word breaks that word anywhere, so
    the browser's minimum would be one character: it gets :data:`WORD_CH` characters, enough for
    its short words to stay whole. A prose column (cells of 40 or more characters) gets at least
    :data:`PROSE_CH` characters, so it never shrinks to a sliver. Characters count
    :data:`CH_PER_CHARACTER` ``ch`` each. The table scrolls sideways when the columns' minimums do
    not fit the page, rather than breaking a short word.
    """
    # (a long camelCase word too: it breaks only between its words, but reads better kept wide)
    width = WORD_CH if any(len(w) > WORD_CH for text in (header, *cells) for w in _WORD_BREAK.split(text)) else 0
    if any(len(text) >= 40 for text in cells):
        width = max(width, PROSE_CH)
    return round(width * CH_PER_CHARACTER, 1)


_NUMBER = re.compile(r"\d(?:[\d,.]*\d)?%?")  # a percent sign stays with its number


def _cell_html(text: str, breaks: bool = True) -> str:
    """``text`` HTML-escaped, every number in it (``1,000,000``, ``0.5``, ``5%``) kept on one line, and a
    line-break opportunity (``<wbr>``) after each underscore (``mcp__github__x``) and each slash
    of a path (``~/skills/x``); with ``breaks`` off (a column kept on one line), no ``<wbr>``:
    a browser breaks at one even in ``white-space: nowrap``."""
    piece = _breakable if breaks else (lambda part: html.escape(part, quote=False))
    parts = []
    last = 0
    for m in _NUMBER.finditer(text):
        parts.append(piece(text[last:m.start()]))
        parts.append(f'<span class="nb">{m.group(0)}</span>')
        last = m.end()
    parts.append(piece(text[last:]))
    return "".join(parts)


_UNDERSCORES = re.compile(r"_+")
#: A slash after a word character (a path's separator, not the one in ``</`` or ``://``).
_PATH_SLASH = re.compile(r"(?<=[\w~.])/")


def _breakable(text: str) -> str:
    # after a run of underscores, not inside it: mcp__github__create_issue breaks as mcp__ | github__ | …;
    # a long camelCase word between its words: naturalLanguage | Query
    text = _camel_marked(html.escape(text, quote=False), "<wbr>")
    return _PATH_SLASH.sub("/<wbr>", _UNDERSCORES.sub(r"\g<0><wbr>", text))


def _tag(name: str, classes: str) -> str:
    return f'<{name} class="{classes}">' if classes else f"<{name}>"


def element_key(key: str) -> str:
    """``key`` as a Streamlit widget key or an HTML attribute can hold it: unchanged, but a lone
    surrogate (half of a UTF-16 pair, e.g. in a server name a JSON file spelled ``"\\ud800"``), which no
    UTF-8 text holds and Streamlit ends the page on, as its ``\\ud800`` escape."""
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def table_html(rows: list[Mapping[str, Any]], *, key: str, columns: list[str] | None = None,
               formats: Mapping[str, str | Callable[[Any], str]] | None = None,
               styles: Mapping[str, Callable[[Any], str]] | None = None,
               nowrap: tuple[str, ...] = (), height: int | None = None,
               cell_css: Callable[[Mapping[str, Any], str], str] | None = None,
               stack: tuple[str, ...] = (), stack_tracks: str | None = None, tight: bool = False) -> str:
    """The HTML of one literal table.

    Args:
        rows: one mapping per row (column → value); values are escaped, never interpreted.
        key: identifies the table (``data-table`` attribute; tests and the browser find it by it).
        columns: the column order (default: the first row's keys).
        formats: per-column format string (``"{:.3f}"``) or function for non-string values.
        styles: per-column function value → CSS declarations for that cell (e.g. a state color).
        nowrap: text columns kept on one line (short codes such as a state name).
        height: a fixed maximum height in px (vertical scroll, sticky header); ``None`` = all rows.
        cell_css: (row, column) → CSS declarations, for styles that depend on more than the value.
        stack: the last columns of the table (long prose), each shown on a line of its own under the
            rest of its row when the table is narrower than :data:`STACK_BELOW_PX` (a CSS container
            query: the rows and cells stay as they are; their cells have class ``s``).
        stack_tracks: the CSS ``grid-template-columns`` of the other columns while stacked (default:
            ``auto`` each, sized by their content); e.g. a minimum width for a name column.
        tight: narrower cell padding (left and right) when the table is narrower than
            :data:`STACK_BELOW_PX`: for a table of many short columns (numbers, one-word headings)
            that would otherwise be a few pixels wider than its box at 1024 px and scroll sideways.

    Returns:
        ``<style>`` plus ``<div class="ts-table" data-table=KEY><table>…</table></div>``. Number
        cells have class ``n`` (right-aligned, never wrapped).

    Raises:
        ValueError: a ``stack`` column is not among the last columns, or every column is stacked.
    """
    formats = formats or {}
    styles = styles or {}
    columns = list(columns if columns is not None else (rows[0].keys() if rows else []))
    stacked = [c for c in columns if c in stack]
    if stacked and (columns[len(columns) - len(stacked):] != stacked or len(stacked) >= len(columns) - 1):
        raise ValueError(f"stacked columns {stacked} must be the last columns, after at least two others: {columns}")

    def line_class(i: int) -> str:
        """``s`` for a stacked cell; ``t`` for a cell whose row goes on below it when stacked (no rule under it)."""
        if not stacked or i == 0:
            return ""
        last = i == len(columns) - 1
        return ("s" if columns[i] in stacked else "") + ("" if last else (" t" if columns[i] in stacked else "t"))
    lines = [line_class(i) for i in range(len(columns))]
    texts = [[cell_text(row.get(c), formats.get(c)) for c in columns] for row in rows]
    # The minimum width sits on a block inside the header cell: browsers ignore min-width on the
    # cells of an auto-layout table, but not the min-content width of what a cell holds.
    # A heading can be catalog text too (a scope or server name): shown like a cell.
    headings = [str(visible(str(c))) for c in columns]
    minimums = [_min_ch(h, [t[i] for t in texts]) for i, h in enumerate(headings)]
    head = "".join(_tag("th", " ".join(filter(None, ("b" if _has_long_word(h) else "", line))))
                   + (f'<div style="min-width:{m}ch">' if m else "<div>") + f"{_cell_html(h)}</div></th>"
                   for h, m, line in zip(headings, minimums, lines))
    body = []
    for row, row_texts in zip(rows, texts):
        cells = []
        for column, text, line in zip(columns, row_texts, lines):
            value = row.get(column)
            kind = "n" if _is_number(value) else ("c" if column in nowrap else ("b" if _has_long_word(text) else ""))
            css = styles[column](value) if column in styles else ""
            if cell_css is not None:
                css = ";".join(part for part in (css, cell_css(row, column)) if part)
            classes = " ".join(filter(None, (kind, line)))
            attrs = (f' class="{classes}"' if classes else "") + (f' style="{html.escape(css)}"' if css else "")
            content = html.escape(text, quote=False) if kind == "n" else _cell_html(text, kind != "c")
            cells.append(f"<td{attrs}>{content}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    box = ";".join(filter(None, (f"max-height:{int(height)}px" if height else "",
                                 f"--ts-tracks:{stack_tracks or ' '.join(['auto'] * (len(columns) - len(stacked)))};"
                                 f"--ts-lines:{1 + len(stacked)}" if stacked else "")))
    box = f' style="{html.escape(box)}"' if box else ""
    return (f'{_STYLE}<div class="ts-table{" ts-stack" if stacked else ""}{" ts-tight" if tight else ""}" data-table="{html.escape(element_key(key))}"{box}><table>'
            f'<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>')


def literal_table(data: Any, *, key: str, columns: list[str] | None = None,
                  formats: Mapping[str, str | Callable[[Any], str]] | None = None,
                  styles: Mapping[str, Callable[[Any], str]] | None = None,
                  nowrap: tuple[str, ...] = (), height: int | None = None, container: Any = None,
                  cell_css: Callable[[Mapping[str, Any], str], str] | None = None, stack: tuple[str, ...] = (),
                  stack_tracks: str | None = None, tight: bool = False) -> None:
    """Show ``data`` (a DataFrame or a list of row mappings) as a literal-text table.

    Every cell is shown in full (prose wraps, numbers never do); up to :data:`SCROLL_ROWS` rows the
    table is as tall as its content, above that it scrolls vertically in a box of
    :data:`SCROLL_HEIGHT` px, and above :data:`PAGE_ROWS` rows a page picker (session key
    ``<key>_page``) shows one page at a time. ``container``: where to draw (default ``st``). See
    :func:`table_html` for the other arguments.
    """
    target = container if container is not None else st
    rows: list[Mapping[str, Any]]
    if hasattr(data, "to_dict"):
        if columns is None:
            columns = [str(c) for c in data.columns]
        rows = [dict(zip(columns, values)) for values in data.itertuples(index=False, name=None)]
    else:
        rows = list(data)
    shown = rows
    if len(rows) > PAGE_ROWS:
        pages = -(-len(rows) // PAGE_ROWS)
        page = int(target.number_input(f"Page (of {pages:,}; {PAGE_ROWS} rows a page)", min_value=1,
                                       max_value=pages, value=1, step=1, key=element_key(f"{key}_page")))
        start = (page - 1) * PAGE_ROWS
        shown = rows[start:start + PAGE_ROWS]
        target.caption(f"Rows {start + 1:,}–{start + len(shown):,} of {len(rows):,}.")
    if height is None and len(shown) > SCROLL_ROWS:
        height = SCROLL_HEIGHT
    target.html(table_html(shown, key=key, columns=columns, formats=formats, styles=styles, nowrap=nowrap,
                           height=height, cell_css=cell_css, stack=stack,
                           stack_tracks=stack_tracks, tight=tight))


# Labels and key take the theme's text color (dimmed by opacity, not by a fixed grey): a fixed dark
# grey read as nothing on the dark theme's background. The outlined cell's black ring has a white halo,
# so it shows on a dark page as on a light one.
_HEAT_STYLE = """<style>
.ts-heat{container-type:inline-size}
.ts-heat table{border-collapse:separate;border-spacing:1px 2px;width:100%;table-layout:fixed;font-size:.8rem}
.ts-heat col.y{width:2.8rem}
.ts-heat th{font-weight:600;color:inherit;padding:.15rem .2rem;text-align:center;white-space:nowrap;
  font-variant-numeric:tabular-nums}
.ts-heat th.y{text-align:right;width:5.2rem}
.ts-heat th.corner{text-align:left;font-weight:400;font-size:.75rem;opacity:.8;white-space:nowrap;overflow:visible;
  vertical-align:bottom}
/* right-aligned: the rows' axis title (th.corner) runs to the right on the same line */
.ts-heat th.x{font-weight:400;opacity:.8;font-size:.75rem;text-align:right}
.ts-heat td{text-align:center;padding:.35rem 0;border-radius:3px;line-height:1.2;font-size:var(--cell-font,.8rem)}
.ts-heat td.at{outline:3px solid #000;outline-offset:-1px;box-shadow:0 0 0 3px #fff;font-weight:700}
.ts-heat .at-mark{display:block;font-size:.68rem;font-weight:400;opacity:.8}
.ts-heat .key{display:flex;flex-wrap:wrap;gap:.3rem .9rem;margin:.4rem 0 0;font-size:.8rem;color:inherit}
.ts-heat .key span{display:inline-flex;align-items:center;gap:.3rem}
.ts-heat .key i{display:inline-block;width:1rem;height:.8rem;border-radius:2px}
</style>"""


#: The width of "summary" in the grid's font (Source Sans) in ems, with a little to spare: 3.96 measured.
SUMMARY_EMS = 4.1


def heat_cell_font(columns: int) -> str:
    """The CSS font size of a form grid's cells when one reads "summary": the grid's .8rem where a
    cell is wide enough for the word, else the size at which it fits its cell. At 1024 px eleven context
    lengths leave a cell about 46 px wide, narrower than "summary" at .8rem (51 px): the word ran into
    its neighbours, then broke as "sum-" / "mary"; it now reads whole, a little smaller, on one line.
    ``columns``: the grid's context-length columns (the y-axis column, 2.8rem, and the 1 px gaps between
    columns are taken off the container's width, ``100cqw``)."""
    return f"min(.8rem,calc((100cqw - 2.8rem - {columns + 2}px) / {columns} / {SUMMARY_EMS}))"


def form_grid_html(points: list, *, key: str, y_axis: str = "threshold_pct",
                   current: tuple[int | None, float] | None = None) -> str:
    """The listing form over context length × ``y_axis`` as a colored HTML table (a heat table).

    One column per context length (ascending), one row per ``y_axis`` value (largest on top, as on a
    chart's y axis: :func:`toolsearch.analysis.sweep.heat_rows`, as in the report's table). Each
    cell names its form on the form's state color (text black or white, whichever reaches WCAG AA
    on the fill) and carries the budget, the listing size, the tier and the deciding leg in its
    tooltip (``title``) and in ``data-*`` attributes. A key of the form
    colors follows the table. An HTML table, not a chart: a slider move that only moves the
    sidebar setting changes one outlined cell, which the browser redraws in a few milliseconds.

    Args:
        points: :class:`toolsearch.analysis.sweep.GridPoint` (or ``SweepRow``) items for one
            listing_max_tokens (``y_axis="threshold_pct"``) or one threshold_pct
            (``y_axis="listing_max_tokens"``); points with an unknown context length are skipped.
        key: the ``data-table`` attribute.
        y_axis: ``threshold_pct`` (%) or ``listing_max_tokens`` (tokens).
        current: ``(context_length, y value)`` of the sidebar setting: that cell is outlined and its
            row and column say "sidebar". Not marked when the context length is unknown or the
            point is not in ``points``.

    Returns:
        ``<style>`` plus ``<div class="ts-heat" data-table=KEY>`` holding the table and the key.
    """
    from toolsearch.analysis.charts import context_label  # plotly is imported by the page anyway
    from toolsearch.analysis.sweep import heat_rows
    from toolsearch.analysis.palette import STATE_COLORS, text_on
    from toolsearch.engine.constants import FORMS

    by_pct = y_axis == "threshold_pct"

    def yval(p):
        return p.threshold_pct if by_pct else p.listing_max_tokens

    def ylabel(v) -> str:
        return f"{v:g}%" if by_pct else f"{v:,}"

    points = [p for p in points if p.context_length]
    contexts = sorted({p.context_length for p in points})
    ys = heat_rows(yval(p) for p in points)
    cell = {(yval(p), p.context_length): p for p in points}
    at = (current[0], current[1]) if current and current[0] else None
    esc = html.escape
    mark = '<span class="at-mark">sidebar</span>'
    corner = "threshold_pct (%)" if by_pct else "listing_max_tokens (tokens)"
    # the rows' axis title over their labels, on one line running to the right over the empty left part of
    # the top row: in the 2.8rem label column it broke inside the name ("threshold_" / "pct (%)")
    over = (f'<tr><th class="corner" scope="col">{esc(corner)}</th>'
            f'<th class="x" colspan="{len(contexts)}">context length (tokens)</th></tr>')
    head = ['<td class="corner-gap"></td>']
    for c in contexts:
        here = at is not None and c == at[0]
        head.append(f'<th title="{c:,} tokens">{esc(context_label(c))}{mark if here else ""}</th>')
    body = []
    for y in ys:
        here_row = at is not None and y == at[1]
        cells = [f'<th class="y" scope="row">{esc(ylabel(y))}{mark if here_row else ""}</th>']
        for c in contexts:
            p = cell.get((y, c))
            if p is None:
                cells.append("<td></td>")
                continue
            fill = STATE_COLORS[p.listing_form]
            here = here_row and c == at[0]
            tip = (f"context length {c:,} tokens · {'threshold_pct' if by_pct else 'listing_max_tokens'} "
                   f"{ylabel(y)}{'' if by_pct else ' tokens'}{' · the sidebar setting' if here else ''}\n"
                   f"{p.label} · tier {p.tier}\n"
                   f"budget {p.budget:,} tokens (decided by {p.budget_winner})\n"
                   f"listing {p.listing_tokens:,} tokens")
            marked = ' class="at" aria-current="true"' if here else ""
            cells.append(
                f'<td{marked} style="background:{fill};'
                f'color:{text_on(fill)}" title="{esc(tip)}" data-form="{esc(p.listing_form)}" '
                f'data-context-length="{c}" data-y="{y}" data-tier="{p.tier}" data-budget="{p.budget}" '
                f'data-listing-tokens="{p.listing_tokens}" data-servers-named="{p.servers_named}">'
                f'{esc(p.short_label)}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    swatches = "".join(f'<span><i style="background:{STATE_COLORS[f]}"></i>{esc(form_word(f))}</span>' for f in FORMS)
    # the mixed label explained on a cell of this grid (this catalog's server count), if it has one
    mixed = next((cell[(y, c)] for y in ys for c in contexts
                  if (y, c) in cell and cell[(y, c)].listing_form == "mixed"), None)
    # an item of the key's own (the key wraps between items): as loose text after a " · " it wrapped to a
    # line of its own at 1024 px that began with the dot
    example = (f'<span class="example">{esc(mixed_label_words(mixed.short_label, mixed.servers_named, mixed.servers_total))}'
               '</span>' if mixed is not None else "")
    # cells shrink only in a grid that shows "summary", and only where the word would not fit
    fit = (f' style="--cell-font:{heat_cell_font(len(contexts))}"'
           if any(p.short_label == "summary" for p in points) else "")
    cols = f'<colgroup><col class="y"><col span="{max(len(contexts), 1)}"></colgroup>'
    return (f'{_HEAT_STYLE}<div class="ts-heat" data-table="{esc(key)}"{fit}><table>{cols}'
            f'<thead>{over}<tr>{"".join(head)}</tr></thead><tbody>{"".join(body)}</tbody></table>'
            f'<div class="key" aria-label="listing form colors">listing form: {swatches}{example}</div></div>')

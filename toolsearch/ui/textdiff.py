"""A side-by-side line diff of two texts as literal HTML (the Compare view of "Compare & collapse").

Two equal columns, each a line-number gutter and the text. Lines wrap between words like prose
(indentation kept); a line also may break after an underscore or a path's slash, so a long tool
name (``mcp__filesystem__create_directory``) breaks at its parts, and a run longer than its column
breaks anywhere only when nothing else fits. The table always fits its container: it never scrolls
sideways, only down (above :data:`MAX_HEIGHT` px).

Every character is HTML-escaped and invisible characters are shown as markers
(:func:`toolsearch.engine.invisible.reveal`), so catalog text is shown literally.

Colors come from :data:`toolsearch.analysis.palette.DIFF_COLORS` (one hue per side, neither a listing-state
hue); :data:`COLOR_WORDS` names them for the caption, so caption and CSS come from one place.
"""

from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass

from toolsearch.analysis.palette import DIFF_COLORS
from toolsearch.engine.invisible import reveal

#: The box scrolls vertically above this height (px); the column titles stay in view.
MAX_HEIGHT = 560
#: Plain color words for :data:`toolsearch.analysis.palette.DIFF_COLORS`, as the caption says them.
COLOR_WORDS: dict[str, str] = {"removed": "red", "added": "violet"}
#: Two paired lines (a line changed in place) get their differing words marked when at least
#: this share of their words match; below it the lines are unrelated and only the line is colored.
WORD_MARK_RATIO = 0.3

#: Words, runs of spaces, single punctuation characters: the units of the in-line comparison.
_TOKENS = re.compile(r"\w+|\s+|[^\w\s]")
_UNDERSCORES = re.compile(r"_+")
#: A slash after a word character (a path's separator, not the one in ``://``).
_PATH_SLASH = re.compile(r"(?<=[\w~.])/")


def caption() -> str:
    """The sentence above the Compare view's diff: what each color means, by its plain name."""
    return (f"The tool_search description side by side: removed lines are {COLOR_WORDS['removed']} (left), "
            f"added lines are {COLOR_WORDS['added']} (right), and a darker shade marks the words that changed "
            "within a line. One line of context around each change; ⋯ rows stand for unchanged lines left out.")


def style() -> str:
    """The ``<style>`` block of the diff (class ``ts-diff``)."""
    c = DIFF_COLORS
    return ("<style>"
            # a light panel on either theme: its text and diff shades are chosen for a white ground
            ".ts-diff{max-height:%(h)dpx;overflow-x:hidden;overflow-y:auto;border:1px solid rgba(49,51,63,.2);"
            "border-radius:.5rem;background:#fff}"
            ".ts-diff table{table-layout:fixed;width:100%%;border-collapse:collapse;font-family:'Source Code Pro',"
            "ui-monospace,monospace;font-size:12px;line-height:1.45}"
            ".ts-diff col.ln{width:5em}"
            ".ts-diff th{position:sticky;top:0;z-index:1;background:#f6f6f8;color:#31333f;font-weight:600;"
            "text-align:left;padding:.3rem .5rem;border-bottom:1px solid rgba(49,51,63,.2);"
            "font-family:'Source Sans Pro',sans-serif;font-size:.8rem}"
            ".ts-diff td{vertical-align:top;padding:.05rem .4rem;color:#31333f}"
            ".ts-diff td.ln{color:#5c5f6b;text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums;"
            "padding:.05rem .3rem;border-right:1px solid rgba(49,51,63,.12)}"
            ".ts-diff td.t{white-space:pre-wrap;overflow-wrap:break-word;word-break:normal}"
            ".ts-diff td.t+td.ln{border-left:1px solid rgba(49,51,63,.2)}"
            ".ts-diff td.del{background:%(rm)s}.ts-diff td.add{background:%(add)s}"
            ".ts-diff td.del mark{background:%(rmw)s;color:inherit;border-radius:2px}"
            ".ts-diff td.add mark{background:%(addw)s;color:inherit;border-radius:2px}"
            ".ts-diff td.none{background:#f6f6f8}"
            ".ts-diff tr.gap td{background:#f6f6f8;color:#5c5f6b;text-align:center;padding:.1rem;"
            "font-family:'Source Sans Pro',sans-serif;font-size:.75rem}"
            "</style>") % {"h": MAX_HEIGHT, "rm": c["removed"], "add": c["added"], "rmw": c["removed words"],
                           "addw": c["added words"]}


@dataclass(frozen=True)
class Row:
    """One row of a side-by-side diff: ``kind`` is ``same``, ``changed`` (a line replaced by
    another at the same place), ``removed`` (left only), ``added`` (right only) or ``gap``
    (unchanged lines left out: ``left_no``/``right_no`` are the first left out, ``text`` says how
    many). Line numbers are 1-based; ``None`` where a side has no line."""

    kind: str
    left_no: int | None = None
    left: str | None = None
    right_no: int | None = None
    right: str | None = None
    skipped: int = 0


def diff_rows(left: list[str], right: list[str], *, context: int = 1) -> list[Row]:
    """The rows of a side-by-side diff of two lists of lines, with ``context`` unchanged lines
    around each change and one ``gap`` row for each run of unchanged lines left out (also before
    the first and after the last change). Within a block of replaced lines, lines are paired in
    order (``changed``); the longer side's extra lines are ``removed`` or ``added``. Identical
    inputs give ``[]``."""
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    if all(tag == "equal" for tag, *_ in matcher.get_opcodes()):
        return []
    groups = list(matcher.get_grouped_opcodes(context))
    rows: list[Row] = []
    at_left = at_right = 0  # the next line not yet shown on each side
    for group in groups:
        _, i1, _, j1, _ = group[0]
        if i1 > at_left:
            rows.append(Row("gap", left_no=at_left + 1, right_no=at_right + 1, skipped=i1 - at_left))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                rows += [Row("same", i + 1, left[i], j + 1, right[j]) for i, j in zip(range(i1, i2), range(j1, j2))]
                continue
            pairs = min(i2 - i1, j2 - j1)
            rows += [Row("changed", i1 + k + 1, left[i1 + k], j1 + k + 1, right[j1 + k]) for k in range(pairs)]
            rows += [Row("removed", left_no=i + 1, left=left[i]) for i in range(i1 + pairs, i2)]
            rows += [Row("added", right_no=j + 1, right=right[j]) for j in range(j1 + pairs, j2)]
        _, _, at_left, _, at_right = group[-1]
    if at_left < len(left):
        rows.append(Row("gap", left_no=at_left + 1, right_no=at_right + 1, skipped=len(left) - at_left))
    return rows


def _breakable(text: str) -> str:
    """``text`` HTML-escaped, with a line-break opportunity after each run of underscores and each
    path slash (``mcp__github__`` | ``create_`` | ``issue``)."""
    return _PATH_SLASH.sub("/<wbr>", _UNDERSCORES.sub(r"\g<0><wbr>", html.escape(text, quote=False)))


def _marked(a: str, b: str) -> tuple[str, str]:
    """The HTML of two paired lines with the words that differ inside ``<mark>`` (none when the
    lines share less than :data:`WORD_MARK_RATIO` of their words)."""
    ta, tb = _TOKENS.findall(a), _TOKENS.findall(b)
    matcher = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    if matcher.ratio() < WORD_MARK_RATIO:
        return _breakable(a), _breakable(b)
    out_a, out_b = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        pa, pb = _breakable("".join(ta[i1:i2])), _breakable("".join(tb[j1:j2]))
        if tag == "equal":
            out_a.append(pa)
            out_b.append(pb)
            continue
        if pa:
            out_a.append(f"<mark>{pa}</mark>")
        if pb:
            out_b.append(f"<mark>{pb}</mark>")
    return "".join(out_a), "".join(out_b)


def _span(first: int, count: int) -> str:
    return str(first) if count == 1 else f"{first}–{first + count - 1}"


def _side(number: int | None, text_html: str, cls: str) -> str:
    """One side of a row: the line-number cell (with − or + on a removed or added line) and the text cell."""
    sign = {"del": " −", "add": " +"}.get(cls, "")
    attr = f' class="ln {cls}"' if cls else ' class="ln"'
    tattr = f' class="t {cls}"' if cls else ' class="t"'
    return f'<td{attr}>{"" if number is None else f"{number}{sign}"}</td><td{tattr}>{text_html}</td>'


def side_by_side(left: list[str], right: list[str], *, left_title: str, right_title: str, key: str,
                 context: int = 1) -> str:
    """The HTML (``<style>`` plus ``<div class="ts-diff" data-diff=KEY><table>…``) of a side-by-side
    diff of two texts given as lists of lines (see :func:`diff_rows`). Each side is a line-number
    cell (class ``ln``) and a text cell (class ``t``); a removed line's cells have class ``del``, an
    added line's ``add``, a missing side ``none``; the words that differ within a changed line are in
    ``<mark>``. Text is shown literally: escaped, invisible characters as markers. Identical texts
    give a table with one row saying so."""
    left = [reveal(line) for line in left]
    right = [reveal(line) for line in right]
    esc = html.escape
    body = []
    for row in diff_rows(left, right, context=context):
        if row.kind == "gap":
            body.append(f'<tr class="gap"><td colspan="4">⋯ {row.skipped:,} unchanged '
                        f'{"line" if row.skipped == 1 else "lines"} (left {_span(row.left_no, row.skipped)}, '
                        f'right {_span(row.right_no, row.skipped)})</td></tr>')
            continue
        if row.kind == "changed":
            a, b = _marked(row.left, row.right)
        else:
            a = _breakable(row.left) if row.left is not None else ""
            b = _breakable(row.right) if row.right is not None else ""
        cls_a = {"same": "", "changed": "del", "removed": "del", "added": "none"}[row.kind]
        cls_b = {"same": "", "changed": "add", "removed": "none", "added": "add"}[row.kind]
        body.append(f'<tr class="{row.kind}">{_side(row.left_no, a, cls_a)}{_side(row.right_no, b, cls_b)}</tr>')
    if not body:
        body.append('<tr class="gap"><td colspan="4">The two texts are identical.</td></tr>')
    return (f'{style()}<div class="ts-diff" data-diff="{esc(key)}"><table>'
            '<colgroup><col class="ln"><col><col class="ln"><col></colgroup>'
            f'<thead><tr><th colspan="2">{esc(left_title)}</th><th colspan="2">{esc(right_title)}</th></tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table></div>')

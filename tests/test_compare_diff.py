"""The side-by-side text diff of the Compare tab (toolsearch/ui/textdiff.py) and its colors."""

from __future__ import annotations

import colorsys
import re

from coloraide import Color

from toolsearch.analysis import palette
from toolsearch.ui import textdiff
from toolsearch.analysis.palette import DIFF_COLORS, STATE_COLORS
from toolsearch.ui.textdiff import Row, diff_rows, side_by_side


def test_rows_pair_changed_lines_and_leave_out_unchanged_runs():
    left = ["a", "b", "c", "d", "e", "f", "g"]
    right = ["a", "b", "C", "d", "e", "f", "g", "h"]
    assert diff_rows(left, right, context=1) == [
        Row("gap", left_no=1, right_no=1, skipped=1),
        Row("same", 2, "b", 2, "b"),
        Row("changed", 3, "c", 3, "C"),
        Row("same", 4, "d", 4, "d"),
        Row("gap", left_no=5, right_no=5, skipped=2),
        Row("same", 7, "g", 7, "g"),
        Row("added", right_no=8, right="h"),
    ]
    # a replaced block longer on the left: pairs first, then the left's extra lines as removed
    assert diff_rows(["x", "y", "z"], ["X"], context=0) == [
        Row("changed", 1, "x", 1, "X"), Row("removed", left_no=2, left="y"), Row("removed", left_no=3, left="z")]
    assert diff_rows(["same"], ["same"]) == []


def test_html_is_literal_two_equal_columns_and_marks_changed_words():
    left = ["- tool_a: Read a <b>file</b> & more", "keep"]
    right = ["- tool_a: Read a <b>folder</b> & more", "keep", "new\u200bline"]
    out = side_by_side(left, right, left_title="left <x>", right_title="right", key="k")
    assert "<b>" not in out and "&lt;b&gt;" in out and "&amp; more" in out and "left &lt;x&gt;" in out
    assert "new⟨U+200B⟩line" in out  # invisible characters shown as markers
    assert '<colgroup><col class="ln"><col><col class="ln"><col></colgroup>' in out
    assert "table-layout:fixed" in out and "overflow-x:hidden" in out
    # the changed line: the differing word marked on each side, the rest plain; underscores breakable
    assert ('<td class="ln del">1 −</td><td class="t del">- tool_<wbr>a: Read a &lt;b&gt;<mark>file</mark>'
            '&lt;/b&gt; &amp; more</td>') in out
    assert '<td class="ln add">1 +</td><td class="t add">- tool_<wbr>a: Read a &lt;b&gt;<mark>folder</mark>' in out
    assert '<tr class="added"><td class="ln none"></td><td class="t none"></td><td class="ln add">3 +</td>' in out
    identical = side_by_side(["a"], ["a"], left_title="l", right_title="r", key="k")
    assert "The two texts are identical." in identical


def _hue_name(color: str) -> str:
    """A plain color word for a hex color by its HLS hue (degrees), independent of the app's code."""
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hue = colorsys.rgb_to_hls(r, g, b)[0] * 360
    for name, (start, end) in {"red": (-15, 15), "orange": (15, 45), "yellow": (45, 70), "green": (70, 170),
                               "blue": (170, 245), "violet": (245, 290), "purple": (290, 345)}.items():
        if start <= (hue - 360 if hue >= 345 else hue) < end:
            return name
    raise AssertionError(hue)


def test_caption_names_the_colors_the_css_uses():
    css = textdiff.style()
    fills = dict(re.findall(r"\.ts-diff td\.(del|add)\{background:(#[0-9A-Fa-f]{6})\}", css))
    words = dict(re.findall(r"\.ts-diff td\.(del|add) mark\{background:(#[0-9A-Fa-f]{6})", css))
    assert fills == {"del": DIFF_COLORS["removed"], "add": DIFF_COLORS["added"]}
    assert words == {"del": DIFF_COLORS["removed words"], "add": DIFF_COLORS["added words"]}
    text = textdiff.caption()
    assert re.search(r"removed lines are (\w+)", text).group(1) == _hue_name(fills["del"]) == "red"
    assert re.search(r"added lines are (\w+)", text).group(1) == _hue_name(fills["add"]) == "violet"
    assert _hue_name(words["del"]) == "red" and _hue_name(words["add"]) == "violet"
    assert not re.search(r"yellow|green", text)


def test_diff_colors_are_not_state_colors():
    """Neither diff hue is a listing-state hue: at least 35 degrees of OKLCh hue from every chromatic
    state color and 20 CIEDE2000 from each; black text (the diff's) reaches AA on every fill."""
    assert palette.PALETTES["text diff"] is DIFF_COLORS
    for name, color in DIFF_COLORS.items():
        hue = Color(color).convert("oklch")["hue"]
        for state, fill in STATE_COLORS.items():
            other = Color(fill).convert("oklch")
            if other["chroma"] < 0.05:  # the greys of hidden/none have no hue
                continue
            gap = abs(hue - other["hue"]) % 360
            assert min(gap, 360 - gap) >= 35, (name, state)
            assert Color(color).delta_e(fill, method="2000") >= palette.MIN_DELTA_E, (name, state)
        assert palette.contrast_ratio("#000000", color) >= 4.5
        assert palette.text_on(color) == "#000000"

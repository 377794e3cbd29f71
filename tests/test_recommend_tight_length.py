"""The headroom line names the same length whatever order the context lengths are listed in: the
shortest of those with the least room. Listed as ``1m,32k`` on the team-workspace sample, every
length has the same budget and listing, and the line said "at 1M", as if 32K had room to spare."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli

SAMPLE = Path(__file__).absolute().parent.parent / "sample_catalogs" / "team-workspace.yaml"


def _headroom_line(lengths: str, headroom: str) -> str:
    result = run_cli("recommend", SAMPLE, "--context-lengths", lengths, "--goal", "names", "--headroom", headroom)
    assert result.returncode == 0, result.stderr
    return next(line for line in result.stdout.splitlines() if line.startswith("headroom: "))


@pytest.mark.parametrize(("headroom", "expected"), [
    ("0", "headroom: 0% · tight: the budget equals the listing at 32K, so any listing growth changes the listing there"),
    ("10", "headroom: 10% · absorbs 148 tokens of listing growth (about 17 tools) at 32K before the listing changes"),
])
def test_the_tightest_length_does_not_depend_on_the_order_given(headroom: str, expected: str) -> None:
    assert _headroom_line("32k,200k,1m", headroom) == expected
    assert _headroom_line("1m,200k,32k", headroom) == expected
    assert _headroom_line("1m,32k", headroom) == expected

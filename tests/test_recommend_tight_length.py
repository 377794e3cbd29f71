"""The headroom line names the same lengths whatever order the context lengths are listed in: every
length with the least room, shortest first. Listed as ``1m,32k`` on the team-workspace sample, every
length has the same budget and listing, and the line said "at 1M", as if 32K had room to spare; then
"at 32K", as if 200K and 1M had."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli

SAMPLES = Path(__file__).absolute().parent.parent / "sample_catalogs"
SAMPLE = SAMPLES / "team-workspace.yaml"
#: what a tight line goes on to say (tests/test_tuning_actions.py)
ADVICE = (" · to keep room for the catalog to grow, rerun with --headroom PCT: --headroom 10 keeps the budget at least "
          "10% above the listing at every length")


def _headroom_line(lengths: str, headroom: str, goal: str = "names", *more: Path) -> str:
    result = run_cli("recommend", SAMPLE, *more, "--context-lengths", lengths, "--goal", goal, "--headroom", headroom)
    assert result.returncode == 0, result.stderr
    return next(line for line in result.stdout.splitlines() if line.startswith("headroom: "))


@pytest.mark.parametrize(("headroom", "expected"), [
    ("0", "headroom: 0% · tight: the budget equals the listing at every listed length, so any listing growth changes "
          "the listing there" + ADVICE),
    ("10", "headroom: 10% · absorbs 148 tokens of listing growth (about 17 tools) at every listed length before the "
           "listing changes"),
])
def test_the_tightest_length_does_not_depend_on_the_order_given(headroom: str, expected: str) -> None:
    assert _headroom_line("32k,200k,1m", headroom) == expected
    assert _headroom_line("1m,200k,32k", headroom) == expected
    assert _headroom_line("1m,32k", headroom) == expected


def test_every_length_with_the_least_room_is_named_and_only_those():
    # Cloudflare's names fit from 200K: the budget equals that listing at 200K and 1M, while 32K (its
    # own goal, tool names listed) keeps room; the line said "at 200K" alone, though 1M is as tight
    expected = ("headroom: 0% · tight: the budget equals the listing at 200K and 1M, so any listing growth changes the "
                "listing there" + ADVICE)
    for lengths in ("32k,200k,1m", "1m,32k,200k"):
        assert _headroom_line(lengths, "0", "names,32k=listed", SAMPLES / "cloudflare-flat.yaml") == expected
    # one length alone with the least room: that length
    assert _headroom_line("32k,128k", "0", "names,32k=listed") == (
        "headroom: 0% · tight: the budget equals the listing at 128K, so any listing growth changes the listing there"
        + ADVICE)

"""The per-length goal that names the servers a short length leaves unnamed is said once, and a context
length that is no whole number of thousands is written with its unit in every sentence of the answer."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import run_cli

TEAM = Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml"


def test_the_per_length_goal_is_said_once_and_200_is_200_tokens() -> None:
    # 2,500 tokens: a request with a listing of up to 1,472 tokens fits it (the tools array alone is 1,160
    # tokens; 200, which no request fits, is left out of the answer)
    done = run_cli("recommend", str(TEAM), "--context-lengths", "2500,10m", "--goal", "names")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    unnamed = [x for x in lines if x.startswith("not named: ")]
    assert len(unnamed) == 1, unnamed  # every server but the eight 2,500 tokens name
    # each such line carried the same long suggestion; now the first carries it
    assert sum("a goal of its own for 2,500 tokens keeps the goal at 10M" in x for x in lines) == 1, lines
    assert "--goal names,2500=listed" in unnamed[0], unnamed[0]
    # the suggested goal does what it says
    again = run_cli("recommend", str(TEAM), "--context-lengths", "2500,10m", "--goal", "names,2500=listed")
    assert again.returncode == 0, again.stdout + again.stderr
    # "at 2,500" read as a count of something; the table and every other sentence write "2,500 tokens"
    sentences = [x for x in lines if not x.startswith(("2,500 tokens ", "10M ", "context_length", "---"))]
    bare = re.compile(r"(?:at|for) 2,500(?! tokens)\b")
    assert not [x for x in sentences if bare.search(x)], sentences
    assert any("at 2,500 tokens (better: 0 → 8 of 9 servers named)" in x for x in lines), lines
    # 200 tokens, which no request fits, is said so in the same words
    short = run_cli("recommend", str(TEAM), "--context-lengths", "200,10m", "--goal", "names").stdout
    assert "at 200 tokens no setting fits: the tools array alone (1,160 tokens, chars4)" in short, short

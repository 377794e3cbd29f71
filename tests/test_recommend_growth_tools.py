"""The headroom line counts the tools its growth stands for at the listing of the lengths that have
the least room, not at the listing of the length naming the fewest servers. With a goal per length,
32K's mixed listing (1,491 tokens for 178 tools) set the tokens per tool while the growth of 4,625
tokens was 200K's and 1M's, whose names listing takes 46,241 tokens for 3,478 tools: the line said
"about 552 tools" where that listing holds about 347 more."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
CATALOG = (ROOT / "sample_catalogs" / "team-workspace.yaml", ROOT / "sample_catalogs" / "cloudflare-flat.yaml")
ARGS = ("recommend", *CATALOG, "--context-lengths", "32k,200k,1m", "--goal", "names,32k=listed", "--headroom", "10")


def test_the_tools_absorbed_are_counted_at_the_tightest_lengths_listing():
    text = run_cli(*ARGS)
    assert text.returncode == 0, text.stderr
    line = ("headroom: 10% · absorbs 4,625 tokens of listing growth (about 347 tools) at 200K and 1M before the "
            "listing changes")
    assert line in text.stdout.splitlines(), text.stdout
    data = json.loads(run_cli(*ARGS, "--json").stdout)
    assert (data["growth_tokens"], data["growth_tools"]) == (4625, 4625 * 3478 // 46241)
    tight = [c for c in data["contexts"] if c["headroom_tokens"] == data["growth_tokens"]]
    assert {(c["listing_tokens"], c["tools_named"]) for c in tight} == {(46241, 3478)}
    assert f"# {line}" in run_cli(*ARGS, "--yaml").stdout.splitlines()

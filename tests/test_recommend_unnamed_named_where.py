"""A server's ``not named`` line names as too short only the lengths that leave it unnamed. With
headroom, its need (254,661 tokens with 200 %) passes a length that names it without that room, and
the line said "more than the whole context at 32K and 200K …; named at 200K and 1M"."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
CATALOG = (ROOT / "sample_catalogs" / "team-workspace.yaml", ROOT / "sample_catalogs" / "cloudflare-flat.yaml")
ARGS = ("recommend", *CATALOG, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "200")


def test_a_length_that_names_the_server_is_not_called_too_short():
    text = run_cli(*ARGS)
    line = next(x for x in text.stdout.splitlines() if x.startswith("not named: cloudflare"))
    assert line == ("not named: cloudflare: naming it needs a budget of 254,661 tokens (with 200% headroom), more than "
                    "the whole 32K context (32,000 tokens); named at 200K and 1M"), line
    data = json.loads(run_cli(*ARGS, "--json").stdout)
    assert data["unnamed"][0]["reason"] == line.removeprefix("not named: ")

"""A server too large for the shortest length and left unnamed at a longer one that could name it
says why at the longer one too: "more than the largest budget whose request fits the 2K context"
alone left 8K, where a budget of 1,694 tokens fits and the row names 1 of 3 servers, without a
reason, so the answer traded grafana away there silently."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).absolute().parent.parent
CATALOG = tuple(ROOT / "sample_catalogs" / f"{n}.yaml" for n in ("cloudflare-flat", "github-full", "grafana-full"))


def _unnamed(*args: str) -> dict[str, str]:
    out = run_cli("recommend", *CATALOG, *args, "--json")
    assert out.returncode == 0, out.stderr
    return {u["name"]: u["reason"] for u in json.loads(out.stdout)["unnamed"]}


def test_a_longer_length_that_could_name_it_says_the_goal_lets_it_collapse():
    text = run_cli("recommend", *CATALOG, "--context-lengths", "2k,8k", "--goal", "listed")
    assert text.returncode == 0, text.stderr
    line = ("not named: grafana: naming it needs a budget of 1,694 tokens, more than the largest budget whose "
            "request fits the 2K context (1,693 tokens); the goal allows a summary line at 8K")
    assert line in text.stdout.splitlines(), text.stdout
    # the JSON and the text give one reason
    assert "not named: " + _unnamed("--context-lengths", "2k,8k", "--goal", "listed")["grafana"] == line


def test_lengths_too_short_or_past_the_cap_are_not_called_a_choice_of_the_goal():
    reasons = _unnamed("--context-lengths", "2k,8k,32k", "--goal", "listed")
    # cloudflare fits no listed length: no "the goal allows" clause
    assert "the goal allows" not in reasons["cloudflare"], reasons["cloudflare"]
    assert reasons["grafana"].endswith("; the goal allows a summary line at 8K and 32K"), reasons["grafana"]


def test_a_kept_server_is_named_where_it_fits_and_gets_no_such_clause():
    out = run_cli("recommend", *CATALOG, "--context-lengths", "2k,8k", "--goal", "listed", "--keep", "grafana")
    assert out.returncode == 1, out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("not named: grafana"))
    assert "the goal allows" not in line and "named at 8K" in line, line

"""The Tuning page says a suggested per-length goal in words, as ``recommend``'s ``goal:`` line says a
per-length goal (:func:`~toolsearch.analysis.recommend.goal_statement`), with the items to enter in
its *Other goal at some lengths* field; it showed the command line's form (``on the command line
--goal full,3k=names``, ``--goal names,200k=full,1m=full keeps …``), which the page offers no way to
run. ``recommend`` and ``check`` keep the command line's form."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
COST_3K = ("that goal takes threshold_pct 49.1%, listing_max_tokens 3,656: a listing of 1,473 tokens at 3K (49.1% of "
           "the context) and 3,656 tokens at 200K (1.8% of the context)")


def _tuning(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def _unescaped(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def test_the_per_length_goal_line_says_the_goal_in_words():
    cli = run_cli("recommend", TEAM, "--context-lengths", "3k,200k", "--goal", "full")
    assert ("per-length goal: a goal of its own for 3K keeps the goal at 200K (3k=names; on the command line --goal "
            f"full,3k=names); {COST_3K}") in cli.stdout.splitlines(), cli.stdout
    # the goal's words are recommend's own for that goal
    followed = run_cli("recommend", TEAM, "--context-lengths", "3k,200k", "--goal", "full,3k=names")
    statement = ("every server at names or better at 3K; every tool with its short description (form full) at 200K")
    assert followed.stdout.splitlines()[1].startswith(f"goal: {statement} · "), followed.stdout
    infos = [_unescaped(i.value) for i in _tuning({"lengths": "3k,200k", "goal": "full"}).info]
    said = [i for i in infos if i.startswith("Per-length goal: ")]
    assert said == [f"Per-length goal: a goal of its own for 3K keeps the goal at 200K (goal: {statement} · Other goal "
                    f"at some lengths: 3k=names); {COST_3K}."], said
    assert not any("--goal" in i or "command line" in i for i in infos), infos


def test_a_not_named_line_carrying_the_per_length_goal_says_it_in_words():
    cloudflare = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
    cli = run_cli("recommend", cloudflare, "--context-lengths", "32k,200k,1m", "--goal", "names")
    assert "(32k=any; on the command line --goal names,32k=any); that goal takes" in cli.stdout, cli.stdout
    at = _tuning({"catalog": "cloudflare-flat", "lengths": "32k,200k,1m", "goal": "names"})
    (box,) = [_unescaped(m.value) for m in at.markdown if m.value.startswith("**Not named")]
    assert ("a goal of its own for 32K keeps the goal at 200K and 1M (goal: some listing (summary lines or better) at 32K; "
            "every server at names or better at 200K and 1M · Other goal at some lengths: 32k=any); that goal takes "
            "threshold_pct 22.4%") in box, box
    assert "--goal" not in box and "command line" not in box


def test_the_goal_that_keeps_what_the_defaults_list_is_said_in_words():
    cli = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10")
    assert "--goal names,200k=full,1m=full keeps what the default settings list at 200K and 1M; " in cli.stdout
    warnings = [_unescaped(w.value) for w in
                _tuning({"lengths": "32k,200k,1m", "goal": "names", "headroom": "10"}).warning]
    (said,) = [w for w in warnings if "lists less than the default settings" in w]
    assert ("\n\nA per-length goal keeps what the default settings list at 200K and 1M (goal: every server at names "
            "or better at 32K; every tool with its short description (form full) at 200K and 1M · Other goal at "
            "some lengths: 200k=full, 1m=full); that goal takes threshold_pct 5.1%, listing_max_tokens 4,022") in said, said
    assert "--goal" not in said

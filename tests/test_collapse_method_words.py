"""``toolsearch collapse`` says how the best choice was found in the words the Compare & collapse
page uses (:func:`toolsearch.analysis.collapse.method_words` after
:data:`~toolsearch.analysis.collapse.METHOD_HEADING`): the command printed ``method: knapsack
(chars4, exact)``, the name of the algorithm, where the page says which sets of servers were
weighed and whether the choice is proven the best."""

from __future__ import annotations

from pathlib import Path

from conftest import inspector_of, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis.collapse import METHOD_HEADING, compare_collapse, method_words
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"


def test_collapse_names_the_method_as_the_page_does() -> None:
    cmp = compare_collapse(inspector_of([TEAM]).planner, parse_config({}), 8_000)
    assert cmp.method.startswith("knapsack") and cmp.exact  # the case the command wrote as "method: knapsack …"
    words = method_words(cmp.method, cmp.exact)
    done = run_cli("collapse", TEAM, "--context-length", "8k")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert f"how the best choice was found: {words}" in lines, lines[:6]
    assert "knapsack" not in done.stdout and not [line for line in lines if line.startswith("method:")]

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"ctx": "8K"})
    at.run()
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    assert not at.exception, at.exception
    captions = [c.value for c in at.caption if METHOD_HEADING.capitalize() in c.value]
    assert captions == [f"Budget {cmp.budget:,} tokens (chars4). How the best choice was found: {words}."], captions

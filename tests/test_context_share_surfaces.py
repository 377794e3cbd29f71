"""A figure's share of the context ("% of context") is one function,
``toolsearch.analysis.quantities.context_share``: the Overview's metrics, the Scopes page's
``% of context`` column, the HTML report's summary and ``recommend``'s large-share lines print what
it returns. At a 10,000,000-token context the team workspace's tools array (4,913 tokens) is
0.049% of it: every surface said "0.0%" (three inline roundings), now each says "<0.1%".
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from conftest import inspector_of, literal_tables, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis import quantities as Q
from toolsearch.analysis.scope_compare import compare_scopes
from toolsearch.engine.config import parse_config
from toolsearch.engine.scopes import Scope

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CONTEXT = 10_000_000


def test_context_share_rounds_to_one_decimal_and_never_shows_a_share_as_zero():
    assert Q.context_share(4_913, 200_000) == "2.5%"
    assert Q.context_share(82_998, 1_000) == "8,299.8%"
    assert Q.context_share(4_913, CONTEXT) == "<0.1%"  # 0.049 %: not "0.0%"
    assert Q.context_share(5_000, CONTEXT) == "0.1%"
    assert Q.context_share(0, CONTEXT) == "0.0%"
    assert Q.context_share(4_913, None) is None and Q.context_share(4_913, 0) is None


def _plan():
    return inspector_of([TEAM]).plan(parse_config({}), CONTEXT)


def test_overview_scopes_page_and_report_show_one_share_of_the_context(tmp_path):
    plan = _plan()
    tools, eager = Q.tools_array(plan), Q.all_schemas_up_front(plan)
    assert Q.context_share(tools, CONTEXT) == "<0.1%" and Q.context_share(eager, CONTEXT) == "0.8%"

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"ctx": "custom", "ctxn": str(CONTEXT), "scope": "ops=grafana,sentry"})
    at.run()
    assert not at.exception, at.exception
    metrics = {m.label: m for m in at.metric}
    # The link selects the scope "ops"; the Overview plans for it.
    ops = inspector_of([TEAM]).scoped(Scope("ops", ("grafana", "sentry"))).plan(parse_config({}), CONTEXT)
    assert metrics[Q.TOOLS_ARRAY.name].value == f"{Q.tools_array(ops):,}"
    assert metrics[Q.TOOLS_ARRAY.name].delta == f"{Q.context_share(Q.tools_array(ops), CONTEXT)} of context"
    assert metrics[Q.ALL_SCHEMAS.name].delta == f"{Q.context_share(Q.all_schemas_up_front(ops), CONTEXT)} of context"
    assert metrics[Q.TOOLS_ARRAY.name].delta == "<0.1% of context"

    at.switch_page("toolsearch/ui/scopes.py").run()
    assert not at.exception, at.exception
    table = literal_tables(at)["scopes_compare"]
    rows = compare_scopes(inspector_of([TEAM]), [None, Scope("ops", ("grafana", "sentry"))],
                          parse_config({}), CONTEXT)
    assert list(table["scope"]) == ["Whole catalog", "ops"]
    assert list(table["% of context"]) == [Q.context_share(r.tokens_per_request, CONTEXT) for r in rows]
    assert list(table["% of context"]) == ["<0.1%", "<0.1%"]
    assert rows[0].tokens_per_request == tools

    out = tmp_path / "r.html"
    done = run_cli("report", str(TEAM), "--context-length", str(CONTEXT), "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = html.unescape(re.sub(r"<[^>]+>", " ", out.read_text(encoding="utf-8")))
    assert f"{tools:,} tokens (<0.1% of context)" in text
    assert f"{eager:,} tokens (0.8% of context)" in text
    assert "(0.0% of context)" not in text


def test_recommend_large_share_line_prints_the_same_share():
    import json

    args = ("recommend", str(TEAM), "--context-lengths", "8k,1m", "--goal", "full")
    tokens = json.loads(run_cli(*args, "--json").stdout)["contexts"][0]["listing_tokens"]
    share = Q.context_share(tokens, 8_000)
    assert f"large share at 8K: the listing takes {tokens:,} tokens, {share} of the context," in run_cli(*args).stdout

"""The tool_search description's token count is one figure on the Model view page, the Compare &
collapse page and ``toolsearch collapse`` (``quantities.tool_search_description_tokens``).

With a BPE planning tokenizer the three surfaces must show the same number: the Model view page
used to show the description's characters ÷ 4 whatever the tokenizer, next to a Listing figure
counted with the planning tokenizer, while the collapse what-if counted it with that tokenizer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import inspector_of, run_cli
from toolsearch.analysis.quantities import tool_search_description_tokens
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
QUERY = {"catalog": "team-workspace", "ctx": "32K", "pct": "2.0", "cap": "3000", "tok": "o200k_base"}


def _page(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(QUERY)
    at.run()
    at.switch_page(f"toolsearch/ui/{page}.py").run()
    assert not at.exception, at.exception
    return at


def _number(text: str, pattern: str) -> int:
    found = re.search(pattern, text)
    assert found, text
    return int(found.group(1).replace(",", ""))


def test_description_tokens_agree_on_pages_and_cli():
    plan = inspector_of([CATALOG]).plan(
        parse_config({"threshold_pct": 2.0, "listing_max_tokens": 3000}), 32_000, tokenizer="o200k_base")
    expected = tool_search_description_tokens(plan.tool_search_description, "o200k_base")
    # a BPE count, not the characters ÷ 4 of the same text
    assert expected != -(-len(plan.tool_search_description) // 4)

    data = json.loads(run_cli("collapse", str(CATALOG), "--context-length", "32000", "--threshold-pct", "2",
                              "--listing-max-tokens", "3000", "--tokenizer", "o200k_base", "--json").stdout)
    assert data["reference_description_tokens"] == expected

    view = _page("model_view")
    (metric,) = [m for m in view.metric if m.label == "tool_search description (characters)"]
    assert _number(metric.delta, r"([\d,]+) tokens \(o200k_base\)") == expected

    compare = _page("cache_diff")
    shown = [_number(m.delta, r"tool_search description ([\d,]+) tokens") for m in compare.metric
             if m.label == "Listing" and "tool_search description" in (m.delta or "")]
    assert shown and shown[0] == expected

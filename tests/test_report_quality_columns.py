"""The design-review report's search-quality table carries the per-query figures that toolsearch
eval and the Search quality page lead with (query recall@5, nonsense queries empty), with the same
values, so a variant that never comes back empty cannot pass for one that abstains."""

from __future__ import annotations

import html
import json
import re

from conftest import run_cli

CATALOG = "sample_catalogs/team-workspace.yaml"
QUERIES = "sample_catalogs/queries/team-workspace-agent.yaml"


def _rows(page: str) -> tuple[list[str], dict[str, list[str]]]:
    section = page[page.index("Query file "):]
    table = section[section.index("<table"):section.index("</table>")]
    cells = lambda row: [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()  # noqa: E731
                         for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
    rows = [cells(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)]
    return rows[0], {r[0]: r for r in rows[1:]}


def test_report_quality_table_has_the_per_query_figures(tmp_path):
    out = tmp_path / "r.html"
    made = run_cli("report", CATALOG, "-o", out, "--query-file", QUERIES, "--no-strategies", "--no-lint")
    assert made.returncode == 0, made.stderr
    header, rows = _rows(out.read_text(encoding="utf-8"))
    assert "query recall@5" in header and "nonsense queries empty" in header
    data = json.loads(run_cli("eval", CATALOG, QUERIES, "--json").stdout)
    for variant in data["variants"]:
        m = variant["metrics"]
        row = dict(zip(header, rows[variant["name"]]))
        assert row["query recall@5"] == f"{m['query_recall_at_5']:.3f}"
        assert row["nonsense queries empty"] == f"{m['nonsense_queries_empty']:.3f}"
    assert dict(zip(header, rows["anthropic-bm25"]))["nonsense queries empty"] == "0.000"

"""One quantity, one number: a search-quality share (recall@1, recall@k, recall@limit, abstention,
query recall@k, nonsense queries empty, abstention accuracy) and MRR read the same on every surface
that shows them: ``toolsearch eval``'s table, the HTML report's table and the Search quality page's
tables and chart, all written by :func:`toolsearch.analysis.wording.evaluation_share` (and
:func:`~toolsearch.analysis.wording.mean_reciprocal_rank`). Before, eval printed ``0.938``, the
page ``93.75%`` and the report ``93.75%`` for the same figure."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from conftest import literal_tables, run_cli
from toolsearch.analysis.wording import evaluation_share, mean_reciprocal_rank

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "sample_catalogs" / "team-workspace.yaml"
QUERIES = ROOT / "sample_catalogs" / "queries" / "team-workspace-agent.yaml"
#: Column heading → key of ``eval --json``'s metrics (k = 5).
COLUMNS = {"recall@1": "recall_at_1", "recall@5": "recall_at_5", "recall@limit": "recall_at_limit", "MRR": "mrr",
           "nonsense tasks empty": "nonsense_tasks_empty", "query recall@5": "query_recall_at_5",
           "nonsense queries empty": "nonsense_queries_empty", "empty-or-not accuracy": "empty_or_not_accuracy"}


def test_evaluation_share_is_a_three_decimal_fraction():
    assert evaluation_share(0.9375) == "0.938"  # not 93.75%
    assert evaluation_share(5 / 6) == "0.833"
    assert evaluation_share(1.0) == "1.000" and evaluation_share(0.0) == "0.000"
    assert evaluation_share(None) == "—" and evaluation_share(None, "") == ""
    assert mean_reciprocal_rank(0.7111) == "0.711"  # MRR, on the same scale beside them


def _expected() -> dict[str, dict[str, str]]:
    """``{variant: {column: text}}`` from ``eval --json`` (raw numbers), written by the library."""
    data = json.loads(run_cli("eval", CATALOG, QUERIES, "--json").stdout)
    # JSON keeps the raw number: some figure has more than three decimals.
    assert any(len(repr(v["metrics"]["query_recall_at_5"])) > 5 for v in data["variants"])
    return {v["name"]: {c: (mean_reciprocal_rank if c == "MRR" else evaluation_share)(v["metrics"][key])
                        for c, key in COLUMNS.items()} for v in data["variants"]}


def _cli_rows() -> dict[str, dict[str, str]]:
    """eval's text table, cut at the columns its dashed rule marks."""
    lines = run_cli("eval", CATALOG, QUERIES).stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("variant "))
    spans = [m.span() for m in re.finditer(r"-+", lines[at + 1])]
    cut = lambda line: [line[a:b + 2].strip() for a, b in spans]  # noqa: E731
    header = cut(lines[at])
    rows = {}
    for line in lines[at + 2:]:
        if not line.strip() or line.startswith("nonsense tasks empty:"):  # the definitions under the table
            break
        cells = cut(line)
        rows[cells[0]] = dict(zip(header, cells))
    return rows


def _report_rows(tmp_path: Path) -> dict[str, dict[str, str]]:
    out = tmp_path / "report.html"
    made = run_cli("report", CATALOG, "-o", out, "--query-file", QUERIES, "--no-strategies", "--no-lint")
    assert made.returncode == 0, made.stderr
    page = out.read_text(encoding="utf-8")
    section = page[page.index("Query file "):]
    table = section[section.index("<table"):section.index("</table>")]
    cells = lambda row: [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()  # noqa: E731
                         for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
    rows = [cells(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)]
    return {r[0]: dict(zip(rows[0], r)) for r in rows[1:]}


def _page() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]], str]:
    """The Search quality page on the same files: its two figure tables merged per variant, the
    chart's bar labels per variant and metric, and its tuning-rule line."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.session_state["catalog"] = "team-workspace"
    at.run()
    at.switch_page("toolsearch/ui/quality.py").run()
    at.selectbox(key="quality_file:team-workspace").set_value(QUERIES.name).run()
    assert not at.exception, at.exception
    tables = literal_tables(at)
    rows: dict[str, dict[str, str]] = {}
    for key in ("quality_metrics", "quality_counts"):
        table = next(t for k, t in tables.items() if k.endswith(key))
        for record in table.to_dict("records"):
            rows.setdefault(record["variant"], {}).update(record)
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    bars = {trace["name"]: dict(zip(trace["y"], trace["text"])) for trace in chart["data"]}
    line = next(t.value for t in at.text if t.value.startswith("in sample, best by the tuning rule"))
    return rows, bars, line


def test_cli_report_and_page_show_the_same_strings(tmp_path):
    expected = _expected()
    cli, report = _cli_rows(), _report_rows(tmp_path)
    page, bars, page_line = _page()
    assert set(cli) == set(report) == set(page) == set(expected)
    compared = 0
    for variant, figures in expected.items():
        for column, text in figures.items():
            assert cli[variant][column] == text, ("eval", variant, column)
            assert page[variant][column] == text, ("page", variant, column)
            if column in report[variant]:  # the report leaves out the abstention rate
                assert report[variant][column] == text, ("report", variant, column)
                compared += 1
            if column in bars[variant]:
                assert bars[variant][column] == text, ("chart", variant, column)
    assert compared == 7 * len(expected)
    # The agent variant's figures, by hand, as a reader finds them on each surface.
    assert cli["agent"]["query recall@5"] == report["agent"]["query recall@5"] == \
        page["agent"]["query recall@5"] == "0.753"
    assert cli["agent"]["nonsense queries empty"] == report["agent"]["nonsense queries empty"] == \
        page["agent"]["nonsense queries empty"] == "0.950"
    # The tuning-rule line: the same sentence in eval and on the page, its target in the same form.
    cli_line = next(line for line in run_cli("eval", CATALOG, QUERIES).stdout.splitlines()
                    if line.startswith("in sample, best by the tuning rule"))
    assert page_line == cli_line
    assert "nonsense queries empty at least 0.950" in cli_line and "%" not in cli_line

"""The HTML report's per-server tables (servers, degradation steps, the listing chart's key) and
its collapse order stop at ``REPORT_SERVER_ROWS`` rows, with a line saying how many are not shown
and where every one is: 20,000 one-tool servers made a 50 MB report. Below the cap nothing changes."""

from __future__ import annotations

import re
from pathlib import Path

from toolsearch.analysis import report as R
from toolsearch.analysis.charts import listing_key_rows
from toolsearch.engine import constants as C
from toolsearch.engine.catalog import Catalog, Server, Tool
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector


def _inspector(servers: int) -> Inspector:
    return Inspector(Catalog(name="many", servers=tuple(
        Server(name=f"srv-{k:04d}", tools=(Tool(name=f"tool_{k}", description=f"Does thing number {k} for the user.",
                                                input_schema={"type": "object"}),))
        for k in range(servers))))


def _plan(servers: int, context_length: int = 20_000):
    inspector = _inspector(servers)
    config = parse_config({})
    return inspector, config, inspector.plan(config, context_length)


def _rows(html: str) -> int:
    return html.count("<tr>") - html.count("<table")  # rows under the header row


def test_the_servers_table_and_the_collapse_order_say_what_they_leave_out() -> None:
    _, _, plan = _plan(12)
    assert len(plan.servers) == 12 and len(plan.collapse_order) == 12
    whole = R._servers(plan, {}, limit=12)
    assert "not shown" not in whole and "more:" not in whole and _rows(whole) == 12
    cut = R._servers(plan, {}, limit=5)
    assert _rows(cut) == 5
    assert ('<p class="muted">The first 5 of 12 servers; the other 7 are not shown here (<code>toolsearch plan --json</code> '
            "lists every one under <code>servers</code>).</p>") in cut
    order = re.search(r"Collapse order \(largest names block first, ties by label\): (.*)</p>", cut).group(1)
    assert order == (" → ".join(plan.collapse_order[:5]) + " → … (7 more: <code>toolsearch plan --json</code> lists every "
                     "one under <code>collapse_order</code>)")


def test_the_steps_table_keeps_its_first_and_last_steps() -> None:
    _, _, plan = _plan(12, 1_000)  # nothing fits: every server collapsed in turn, and one step more
    count = len(plan.steps)
    assert count > 6, count
    assert "not shown" not in R._steps(plan, limit=count)
    cut = R._steps(plan, limit=6)
    numbers = [int(n) for n in re.findall(r'<tr><td class="num">(\d+)</td>', cut)]
    assert numbers == [1, 2, 3, count - 2, count - 1, count]
    assert (f'<p class="muted">Steps 1–3 and {count - 2}–{count} of {count}; the other {count - 6} are not shown here '
            "(<code>toolsearch plan --json</code> lists every one under <code>steps</code>).</p>") in cut


def test_the_chart_key_says_how_many_parts_it_leaves_out() -> None:
    _, _, plan = _plan(12)
    rows = listing_key_rows(plan)
    whole = R._key(rows, {}, limit=len(rows))
    assert whole.startswith('<p class="muted">Key: every part of the chart, in order.</p>') and "not shown" not in whole
    cut = R._key(rows, {}, limit=4)
    assert cut.startswith(f'<p class="muted">Key: the parts of the chart, in order (the first 4 of {len(rows)}).</p>')
    assert _rows(cut) == 4
    assert cut.endswith(f'<p class="muted">The first 4 of {len(rows)} parts of the chart; the other {len(rows) - 4} are not '
                        "shown here (<code>toolsearch plan --json</code> lists every server under <code>servers</code>, "
                        "in the chart's order under <code>collapse_order</code>).</p>")


def test_a_report_past_the_cap_says_so_and_one_at_it_does_not() -> None:
    limit = C.REPORT_SERVER_ROWS
    for servers, cut in ((limit, False), (limit + 3, True)):
        inspector, config, _ = _plan(servers)
        html = R.build_report(inspector, config, 20_000)
        line = f"The first {limit:,} of {servers:,} servers; the other 3 are not shown here"
        assert (line in html) == cut
        assert html.count("is not shown here") == 0


def test_the_manual_quotes_the_cap() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "app.md").read_text(encoding="utf-8")
    assert (f"show the first {C.REPORT_SERVER_ROWS} rows (the steps: the first and last "
            f"{C.REPORT_SERVER_ROWS // 2}), with a line saying how many are not shown") in text


def test_the_poisoning_table_says_how_many_findings_it_leaves_out() -> None:
    """Three servers' texts name a tool of twelve others: eleven findings each (ten named, one
    counting the rest); a table cut at four says how many it leaves out."""
    servers = [Server(name=f"gh-{k}", tools=(Tool(name="create_issue", description="Open an issue.",
                                                  input_schema={"type": "object"}),)) for k in range(12)]
    servers += [Server(name=f"chat-{k}", tools=(Tool(name="post_message", description="Post it; call create_issue first.",
                                                     input_schema={"type": "object"}),)) for k in range(3)]
    inspector = Inspector(Catalog(name="shadows", servers=tuple(servers)))
    whole = R._poisoning(inspector)
    assert _rows(whole) == 3 * 11 and "The first" not in whole
    cut = R._poisoning(inspector, limit=4)
    assert _rows(cut) == 4
    assert cut.endswith('<p class="muted">The first 4 of 33 findings (<code>toolsearch lint</code> lists every one).</p>')

"""The Costs page's per-server chart cuts a long server name to 64 characters (24 when its labels
stand upright, past 12 servers). Plotly draws one bar group per distinct label, so two long names
that shared their first characters (``payments-production-eu-west-1-…``) were drawn as one server.
A cut label another name also gets now ends in a number (``… (1)``, ``… (2)``), still within the
limit; a name short enough to show whole is never changed."""

from __future__ import annotations

import json

from toolsearch.analysis import charts
from toolsearch.engine.catalog import load_text
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

PREFIX = "payments-production-eu-west-1-" * 3  # 90 characters


def test_axis_names_number_the_cut_names_that_would_share_a_label():
    a, b = PREFIX + "orders", PREFIX + "refunds"
    assert charts.axis_names([a, "github", b], 64) == [PREFIX[:59] + "… (1)", "github", PREFIX[:59] + "… (2)"]
    assert charts.axis_names([a, b], 24) == [PREFIX[:19] + "… (1)", PREFIX[:19] + "… (2)"]
    # a cut name alone keeps the plain cut; an equal name gets the same label; every label fits the limit
    assert charts.axis_names([a, "x" * 70], 64) == [PREFIX[:63] + "…", "x" * 63 + "…"]
    assert charts.axis_names([a, b, a], 24)[2] == PREFIX[:19] + "… (1)"
    # a whole name that reads like another's cut label keeps it; the cut one is numbered
    whole = PREFIX[:23] + "…"
    labels = charts.axis_names([whole, a], 24)
    assert labels == [whole, PREFIX[:19] + "… (1)"]
    many = charts.axis_names([PREFIX + str(i) for i in range(12)], 24)
    assert len(set(many)) == 12 and max(map(len, many)) == 24 and many[-1] == PREFIX[:18] + "… (12)"


def _plan(names: list[str]):
    catalog = {"name": "shared prefixes", "servers": [
        {"name": name, "tools": [{"name": f"tool_{i}", "description": "Do one thing.",
                                  "inputSchema": {"type": "object"}}]} for i, name in enumerate(names)]}
    return Inspector(load_text(json.dumps(catalog), "prefixes.json")).plan(parse_config({}), 200_000)


def test_server_costs_chart_draws_one_bar_group_per_server():
    for count in (2, 13):  # two-line labels (64 characters), then upright one-line labels (24)
        plan = _plan([PREFIX + f"server-{i}" for i in range(count)])
        fig = charts.server_costs_figure(plan)
        bars = [trace for trace in fig.data if trace.type == "bar"]
        assert bars and all(len(set(trace.x)) == count for trace in bars), [sorted(set(t.x)) for t in bars]

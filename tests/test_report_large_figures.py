"""Large catalogs in the report: a chart built without validating its traces (one per server,
past ``VALIDATE_TRACES``) is copied for the report without validating them again (20,000 servers
spent most of the report's time there) and draws the same figure; the listing-form grid counts
the servers once per chosen step, with the counts of every cell as before."""

from __future__ import annotations

import json
import re

import plotly.graph_objects as go

from toolsearch.analysis import charts
from toolsearch.analysis import sweep as S
from toolsearch.engine.catalog import Catalog, Server, Tool
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector


def _inspector(servers: int) -> Inspector:
    return Inspector(Catalog(name="many", servers=tuple(
        Server(name=f"srv-{k:03d}", tools=(Tool(name=f"tool_{k}", description=f"Does thing number {k}.",
                                                input_schema={"type": "object"}),))
        for k in range(servers))))


def _figure_data(fragment: str) -> list:
    match = re.search(r"Plotly\.newPlot\(\s*\"[^\"]+\",\s*(\[.*?\]),\s*\{", fragment, re.DOTALL)
    assert match, fragment[:300]
    return json.loads(match.group(1))


def test_a_figure_of_many_traces_is_not_validated_again(monkeypatch) -> None:
    plan = _inspector(charts.VALIDATE_TRACES + 20).plan(parse_config({}), 200_000)
    figure = charts.listing_budget_figure(plan)
    assert len(figure.data) > charts.VALIDATE_TRACES
    validated = go.Figure(figure)  # what the report copied before: the same data, each trace validated
    copies = []
    original = go.Figure.__init__

    def recording(self, *args, **kwargs):
        copies.append(kwargs.get("_validate", True))
        original(self, *args, **kwargs)

    monkeypatch.setattr(go.Figure, "__init__", recording)
    fragment = charts.figures_html({"listing": figure})["listing"]
    assert copies and not any(copies)
    monkeypatch.undo()
    assert _figure_data(fragment) == json.loads(json.dumps(validated.to_plotly_json()["data"], default=list))


def test_the_grid_counts_each_chosen_step_once(monkeypatch) -> None:
    inspector = _inspector(40)
    config = parse_config({})
    ladder = S.listing_ladder(inspector.planner, config)
    calls = []
    original = S.Ladder.counts_of
    monkeypatch.setattr(S.Ladder, "counts_of", lambda self, step: calls.append(step) or original(self, step))
    points = S.form_grid(ladder, config)
    assert len(calls) == len({id(s) for s in calls}) < len(points)
    monkeypatch.undo()
    for p in points:
        counts = ladder.counts_at(p.budget)
        assert (p.servers_named, p.servers_total, p.tools_named) == (counts.servers_named, counts.servers_total,
                                                                     counts.tools_named)

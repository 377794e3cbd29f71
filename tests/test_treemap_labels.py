"""The Costs page's treemap (server → tool) at 1024 px: the color scale stood beside the tiles and
took a third of the chart's width, and a tool name on one line was wider than most tiles, so all
but a couple of the 50 tool tiles showed no label. The scale now lies under the tiles, a long tool
name takes two lines, and the chart is taller; a label still shows at 10 px or not at all.
(tests/test_browser_charts.py counts the labels plotly.js draws at that width.)"""

from __future__ import annotations

from pathlib import Path

from conftest import inspector_of
from toolsearch.analysis import charts
from toolsearch.analysis import quantities as Q

SAMPLES = Path(__file__).resolve().parent.parent / "sample_catalogs"


def costliest_rows(catalog: str = "team-workspace.yaml", top: int = 50) -> list[charts.ToolCost]:
    """The Costs page's rows for its treemap: the ``top`` costliest tools (chars4) of a sample."""
    ins = inspector_of([SAMPLES / catalog])
    tokens = Q.tool_schemas(ins.planner, "chars4")
    ranked = sorted(ins.registration.tools, key=lambda t: (-tokens[t.name], t.name))[:top]
    return [charts.ToolCost(server=t.server, tool=t.raw_name, name=t.name, tokens=tokens[t.name],
                            description=t.description, state="full", deferred=True) for t in ranked]


def test_tile_label_splits_a_long_name_at_the_separator_nearest_its_middle():
    assert charts.tile_label("list_commits") == "list_commits"  # 12 characters: one line
    assert charts.tile_label("create_pull_request_review") == "create_pull<br>_request_review"
    assert charts.tile_label("slack_post_message") == "slack_post<br>_message"
    assert charts.tile_label("get-file-contents") == "get-file<br>-contents"
    assert charts.tile_label("createPullRequestReview") == "createPullRequestReview"  # no separator: as is
    assert charts.tile_label("a_bcdefghijklmnop") == "a<br>_bcdefghijklmnop"


def test_treemap_gives_its_tiles_the_width_and_splits_long_names():
    rows = costliest_rows()
    fig = charts.tool_tree_figure(rows, "chars4", 4_000)
    (tree,) = fig.data
    bar = tree.marker.colorbar
    assert (bar.orientation, bar.yanchor, bar.title.side) == ("h", "top", "top")  # under the tiles
    assert bar.y < 0 and fig.layout.margin.b >= 60
    assert fig.layout.height == 640
    assert tree.texttemplate == "%{label}<br>%{value:,}"  # the scale's title says the unit
    assert (fig.layout.uniformtext.minsize, fig.layout.uniformtext.mode) == (10, "hide")
    tools = [label for label, parent in zip(tree.labels, tree.parents) if parent]
    assert len(tools) == 50
    assert "create_pull<br>_request" in tools and "list_commits" in tools
    # every name longer than 14 characters with a separator in it is on two lines
    raw = {r.name: r.tool for r in rows}
    split = {raw[c[1]]: label for label, c, parent in zip(tree.labels, tree.customdata, tree.parents) if parent}
    assert all(label.count("<br>") == 1 for tool, label in split.items()
               if len(tool) > charts.TILE_LINE_CHARS and "_" in tool[1:-1]), split
    # the hover names every tool in full, on one line
    assert {c[1] for c, parent in zip(tree.customdata, tree.parents) if parent} == {r.name for r in rows}

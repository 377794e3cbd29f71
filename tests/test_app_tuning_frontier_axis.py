"""The Tuning page's frontier chart (Streamlit ``AppTest``): its log x axis (listing tokens per
request) labels each tick with the full number of tokens. A log axis spanning less than a decade
otherwise shows bare leading digits ("2", "3", ... "1000"), which read as 2 or 3 tokens."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).absolute().parent.parent


def test_frontier_x_ticks_are_full_token_counts():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k, 200k, 1m", "with": "cloudflare-flat"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    at.session_state["tuning_frontier_open"] = True  # the user opens the frontier (drawn only when open)
    at.run()
    assert not at.exception, at.exception
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    frontier = [s for s in specs if "listing tokens per request" in
                str(s["layout"].get("xaxis", {}).get("title", {}).get("text", ""))]
    assert len(frontier) == 1, [s["layout"].get("xaxis", {}).get("title") for s in specs]
    axis = frontier[0]["layout"]["xaxis"]
    assert axis["type"] == "log"
    xs = [x for trace in frontier[0]["data"] for x in trace["x"]]
    ticks, texts = axis.get("tickvals"), axis.get("ticktext")
    assert ticks and texts and len(ticks) == len(texts), axis
    assert texts == [f"{v:,.0f}" for v in ticks]  # "200", "1,000": the number, never its first digit
    assert min(ticks) <= min(xs) and max(ticks) >= max(xs), (ticks, min(xs), max(xs))  # the data lie inside
    assert "1,000" in texts  # this catalog's listings run from 177 to 1,491 tokens at 32K
    # the marks are not clipped at the top nor under the chart's toolbar, and at 32K, where the
    # sidebar (5 %, 4,000) gives the best reachable listing (names at every length is out of reach with
    # cloudflare), the sidebar's open diamond shows around the star
    layout = frontier[0]["layout"]
    top = max(y for trace in frontier[0]["data"] for y in trace["y"])
    assert layout["yaxis"]["range"][1] >= top + 0.5 and layout["margin"]["t"] >= 30, layout
    marks = {t["name"]: t for t in frontier[0]["data"] if t.get("mode") == "markers"}
    assert marks["sidebar"]["x"] == marks["best reachable"]["x"] and marks["sidebar"]["y"] == marks["best reachable"]["y"]
    assert marks["sidebar"]["marker"]["size"] > marks["best reachable"]["marker"]["size"]

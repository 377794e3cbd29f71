"""Where a reached recommendation lists less than the current settings, the Tuning page said from
which headroom a recommendation lists as much ("only from 149% headroom on"), but ``recommend``'s
"lists less" line (text, markdown, the ``--yaml`` block's comment) and the report did not. Every
surface now ends that line with the figure of one function,
:func:`~toolsearch.analysis.recommend.headroom_listing_as_much`, and ``--json`` carries it."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli, write_yaml

from toolsearch.analysis.recommend import headroom_listing_as_much, keeping_goal, recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
ARGS = ("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names")
LOWERED = ("lists less than the default settings (threshold_pct 5%, listing_max_tokens 4,000) at 200K (lower form: "
           "full → names), 1M (lower form: full → names) · it is the cheapest setting that meets the goal")


def _needed(config=None) -> int | None:
    config = config or parse_config({})
    ladder = listing_ladder(Inspector(load_source(TEAM)).planner, config)
    return headroom_listing_as_much(ladder, config, recommend_for_contexts(ladder, config, [32_000, 200_000, 1_000_000],
                                                                            "names"))


def test_every_output_of_recommend_gives_the_headroom_that_lists_as_much():
    needed = _needed()
    assert needed == 149  # the Tuning page's figure for the same question (tests/test_tuning_headroom_advice.py)
    clause = f" · more headroom lists at least as much as the default settings at every length only from {needed}% headroom on"
    # between the two, the goal that keeps what the defaults list there (keeping_goal)
    config = parse_config({})
    ladder = listing_ladder(Inspector(load_source(TEAM)).planner, config)
    keeping = keeping_goal(ladder, config, recommend_for_contexts(ladder, config, [32_000, 200_000, 1_000_000], "names"))
    clause = f" · {keeping.words('default')}" + clause
    text = run_cli(*ARGS)
    assert text.returncode == 0, text.stderr
    assert LOWERED + clause in text.stdout.splitlines(), text.stdout
    block = run_cli(*ARGS, "--yaml")
    assert "# " + LOWERED + clause in block.stdout.splitlines(), block.stdout
    markdown = run_cli(*ARGS, "--format", "markdown")
    assert ("- " + LOWERED + clause).replace("_", "\\_") in markdown.stdout.splitlines(), markdown.stdout
    assert json.loads(run_cli(*ARGS, "--json").stdout)["headroom_listing_as_much"] == needed
    # with that headroom the recommendation lists as much: no line, and the figure is its own headroom
    more = run_cli(*ARGS, "--headroom", str(needed))
    assert "lists less than" not in more.stdout and "more headroom" not in more.stdout, more.stdout
    assert json.loads(run_cli(*ARGS, "--headroom", str(needed), "--json").stdout)["headroom_listing_as_much"] == needed


def test_the_line_names_the_current_settings_and_their_figure(tmp_path):
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": {"threshold_pct": 10, "listing_max_tokens": 5000}}})
    needed = _needed(parse_config({"threshold_pct": 10, "listing_max_tokens": 5000}))
    text = run_cli(*ARGS, "--config", config)
    line = next(x for x in text.stdout.splitlines() if x.startswith("lists less than"))
    assert line.startswith("lists less than the current settings (threshold_pct 10%, listing_max_tokens 5,000) at ")
    assert line.endswith(f" · more headroom lists at least as much as the current settings at every length only from {needed}% "
                         "headroom on"), line
    assert json.loads(run_cli(*ARGS, "--config", config, "--json").stdout)["headroom_listing_as_much"] == needed


def test_not_reached_gives_no_headroom_advice():
    args = ("recommend", TEAM, "--context-lengths", "1000", "--goal", "full")
    text = run_cli(*args)
    assert "more headroom" not in text.stdout, text.stdout
    assert json.loads(run_cli(*args, "--json").stdout)["headroom_listing_as_much"] is None


def test_the_report_carries_the_same_figure(tmp_path):
    out = tmp_path / "report.html"
    done = run_cli("report", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "-o", out)
    assert done.returncode == 0, done.stderr
    # the line and the block's comment, as recommend prints them
    said = f"more headroom lists at least as much as the default settings at every length only from {_needed()}% headroom on"
    assert out.read_text(encoding="utf-8").count(said) == 2

"""One name per figure on the Tuning page, the command line and the report.

* Out of reach, ``recommend`` calls its answer the "best reachable setting"; the page labeled the same
  numbers "Recommended threshold_pct" and offered "Apply to the sidebar" and "Download tool_search.yaml"
  as if they were a setting to ship.
* The budget metric out of reach was "Budget needed for the best reachable listing", beside a box saying
  the goal "needs a budget of 3,656 tokens": two quantities, both called "budget needed".
* The defaults (threshold_pct 5%, listing_max_tokens 4,000) were the "current settings" in the page's
  warning and the "default settings" in the block under it (and in the report's consecutive paragraphs).
* threshold_pct read ``5.0`` in the grid table and the Compare settings table, ``5%`` elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import literal_tables, run_cli
from streamlit.testing.v1 import AppTest

from toolsearch.analysis.wording import settings_name, threshold_value, threshold_words
from toolsearch.ui.tuning import BEST_REACHABLE_BUDGET_LABEL

ROOT = Path(__file__).resolve().parent.parent
TEAM = str(ROOT / "sample_catalogs" / "team-workspace.yaml")


def _tuning(query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    return at


def _downloads(at: AppTest) -> list[str]:
    return [b.proto.label for b in at.get("download_button") if "tool_search.yaml" in b.proto.label]


def test_out_of_reach_the_page_names_the_best_reachable_setting_as_recommend_does() -> None:
    cli = run_cli("recommend", TEAM, "--context-lengths", "2k,32k", "--goal", "full")
    # at 2K a budget past 923 tokens makes the request longer than the context: 6 of 9 servers are named there
    assert "best reachable setting (6 of 9 servers named at 2K, the goal kept at 32K, where it fits, and the " \
           "fewest listing tokens): threshold_pct 37%, listing_max_tokens 3,656" in cli.stdout
    at = _tuning({"lengths": "2k,32k", "goal": "full"})
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Best reachable threshold_pct"] == "37%", metrics
    assert metrics["Best reachable listing_max_tokens"] == "3,656 tokens", metrics
    assert not [label for label in metrics if label.startswith("Recommended")], metrics
    # the budget metric is not "budget needed": the goal needs 3,656 tokens, said in the box beside it
    assert metrics[BEST_REACHABLE_BUDGET_LABEL] == "3,656 tokens", metrics
    assert not [label for label in metrics if label.lower().startswith("budget needed")], metrics
    assert any("it needs a budget of 3,656 tokens" in e.value for e in at.error)
    # the actions say the setting does not reach the goal, and are not the page's primary button
    apply = at.button(key="tuning_apply_multi")
    assert apply.label == "Apply the best reachable setting to the sidebar"
    assert apply.proto.type == "secondary"
    assert _downloads(at) == ["Download tool_search.yaml (goal not reached)"] * 2
    table = literal_tables(at)["tuning_multi_table"]
    assert "best reachable: listing" in table.columns and "recommended: listing" not in table.columns
    assert "this length alone" in table.columns
    assert any(m.value.startswith("**Best collapse per context length** at the best reachable settings (threshold_pct "
                                  "37%") for m in at.markdown)
    assert any(c.value.startswith("At the sidebar's context length (200K) the best reachable settings give")
               for c in at.caption)
    apply.click().run()  # applied, it is still the best reachable setting, not a recommendation
    assert not at.exception, at.exception
    assert [i.value for i in at.info if i.value.startswith("The sidebar holds")] == [
        "The sidebar holds a best reachable setting applied in place of threshold_pct 5%, listing_max_tokens 4,000; "
        "this best reachable setting lists no less than those at any listed length."]


def test_reached_the_page_keeps_recommended_and_the_budget_needed_of_recommend() -> None:
    at = _tuning({"lengths": "32k,200k,1m", "goal": "names"})
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Recommended threshold_pct"] == "4.7%", metrics
    cli = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names")
    assert "budget needed at every length: 1,473 tokens" in cli.stdout
    assert metrics["Budget needed at every length"] == "1,473 tokens", metrics
    apply = at.button(key="tuning_apply_multi")
    assert apply.label == "Apply to the sidebar" and apply.proto.type == "primary"
    assert _downloads(at) == ["Download tool_search.yaml"] * 2


def test_the_defaults_are_the_default_settings_on_the_page_and_in_its_block() -> None:
    at = _tuning({"lengths": "32k,200k,1m", "goal": "names"})
    warnings = [w.value for w in at.warning if "lists less than" in w.value]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("The recommendation lists less than the default settings at 200K"), warnings
    assert "current settings" not in warnings[0], warnings
    block = at.code[0].value
    assert "# lists less than the default settings (threshold_pct 5%, listing_max_tokens 4,000)" in block
    table = literal_tables(at)["tuning_multi_table"]
    assert "default: listing" in table.columns and "current: listing" not in table.columns
    assert any(c.value.startswith("Default: threshold_pct 5%, listing_max_tokens 4,000 (the sidebar).")
               for c in at.caption)
    # other values in the sidebar are the current settings, on the page and in the block alike
    at = _tuning({"lengths": "32k,200k,1m", "goal": "names", "pct": "10", "cap": "5000"})
    warnings = [w.value for w in at.warning if "lists less than" in w.value]
    assert warnings and warnings[0].startswith("The recommendation lists less than the current settings at "), warnings
    assert "# lists less than the current settings (threshold_pct 10%, listing_max_tokens 5,000)" in at.code[0].value
    assert "current: listing" in literal_tables(at)["tuning_multi_table"].columns


def test_the_report_calls_the_defaults_default_settings() -> None:
    from conftest import inspector_of  # noqa: PLC0415
    from toolsearch.analysis.recommend import recommend_for_contexts  # noqa: PLC0415
    from toolsearch.analysis.report import build_report  # noqa: PLC0415
    from toolsearch.analysis.sweep import listing_ladder  # noqa: PLC0415
    from toolsearch.engine.config import ToolSearchConfig  # noqa: PLC0415

    inspector = inspector_of([TEAM])
    for config, name in ((ToolSearchConfig(), "default settings"),
                         (ToolSearchConfig(threshold_pct=10.0, listing_max_tokens=5000), "current settings")):
        ladder = listing_ladder(inspector.planner, config, "chars4")
        rec = recommend_for_contexts(ladder, config, [32_000, 200_000, 1_000_000], "names")
        html = build_report(inspector, config, 32_000, recommendation=rec)
        other = "current settings" if name == "default settings" else "default settings"
        assert f"<h2>{name.capitalize()} (the figures below are computed at these)</h2>" in html
        assert f"<strong>{name.capitalize()} (threshold_pct" in html
        assert f"Figures below at the {name}:" in html
        assert other.capitalize() not in html
        if name == "default settings":
            assert "current settings" not in html.lower()


def test_threshold_pct_reads_the_same_on_every_surface() -> None:
    assert [threshold_value(p) for p in (2.0, 5, 4.7, 73.7, 0.5)] == ["2%", "5%", "4.7%", "73.7%", "0.5%"]
    assert threshold_words(2.0) == "threshold_pct 2%"
    assert settings_name(5.0, 4000) == "default settings" and settings_name(2.0, 4000) == "current settings"
    at = _tuning({"lengths": "32k,200k,1m", "goal": "names", "pct": "2"})
    at.session_state["tuning_grid_open"] = True
    at.run()
    grid = literal_tables(at)["tuning_grid"]
    assert "2" in set(grid["threshold_pct (%)"]) and not any(v.endswith(".0") for v in grid["threshold_pct (%)"])
    alone = list(literal_tables(at)["tuning_multi_table"]["this length alone"])
    assert all(cell.split(" / ")[0].endswith("%") for cell in alone), alone


def _unescaped(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def _cli_line(stdout: str, start: str) -> str:
    (line,) = [line for line in stdout.splitlines() if line.startswith(start)]
    return line


def test_the_per_length_goal_and_a_goal_met_by_built_in_tools_read_as_recommend_says_them() -> None:
    """Out of reach for goal full, the page gave only a general hint while ``recommend`` names the
    per-length goal that is reached (``--goal full,3k=names``); a goal met by core's tools alone was
    said on the command line only. The page says the goal in words, where the command line gives
    ``--goal`` (tests/test_tuning_per_length_goal_words.py); the rest of the line is the same."""
    cli = run_cli("recommend", TEAM, "--context-lengths", "3k,200k", "--goal", "full")
    line = _cli_line(cli.stdout, "per-length goal: ")
    assert "--goal full,3k=names" in line
    infos = [_unescaped(i.value) for i in _tuning({"lengths": "3k,200k", "goal": "full"}).info]
    (said,) = [i for i in infos if i.startswith("Per-length goal: ")]
    head, _, tail = line.partition(" (3k=names; on the command line --goal full,3k=names)")
    assert said.startswith(head[0].upper() + head[1:] + " (goal: ") and said.endswith(tail + "."), (said, line)
    cli = run_cli("recommend", TEAM, "--context-lengths", "8k,32k,200k", "--goal", "listed")
    line = _cli_line(cli.stdout, "only built-in tools named at ")
    warnings = [_unescaped(w.value) for w in _tuning({"lengths": "8k,32k,200k", "goal": "listed"}).warning]
    assert [w for w in warnings if w.startswith("Only built-in tools named at ")] == [line[0].upper() + line[1:] + "."]


def test_where_the_answer_lists_less_the_page_gives_the_goal_that_keeps_it_as_recommend_does() -> None:
    """README's step 2 lists names at 200K and 1M where the defaults list every tool in full:
    ``recommend`` names the verified goal that keeps them; the page gave only a general hint."""
    cli = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10")
    (line,) = [line for line in cli.stdout.splitlines() if line.startswith("lists less than the default settings")]
    keeps = line[line.index("--goal names,200k=full,1m=full keeps"):].split(" · ")[0]
    warnings = [_unescaped(w.value) for w in _tuning({"lengths": "32k,200k,1m", "goal": "names", "headroom": "10"}).warning]
    # the same verified goal and cost; the page says the goal in words where recommend gives --goal
    cost = keeps[keeps.index("; that goal takes"):]
    assert [w for w in warnings if "\n\nA per-length goal keeps what the default settings list at 200K and 1M (goal: "
            in w and w.endswith("· Other goal at some lengths: 200k=full, 1m=full)" + cost + ".")], (keeps, warnings)

"""Shipping a recommended setting and gating it, as a platform engineer does: recommend, save the
block, run its ``# gate:`` line on later catalogs. What the gate says when it fails must let the
reader act without another tool: which server the listing traded away, and why."""

from __future__ import annotations

from pathlib import Path

import yaml

from conftest import inspector_of, run_cli

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"


def _big_server(path: Path, name: str = "warehouse", tools: int = 300) -> Path:
    schema = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    path.write_text(yaml.safe_dump({"name": "Warehouse", "servers": [{"name": name, "kind": "mcp", "tools": [
        {"name": f"op_{i:03d}", "description": f"Warehouse operation {i} on inventory records.", "inputSchema": schema}
        for i in range(tools)]}]}), encoding="utf-8")
    return path


def test_a_failing_gate_names_the_server_that_collapsed(tmp_path) -> None:
    config = tmp_path / "config.yaml"
    block = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10",
                    "--yaml")
    assert block.returncode == 0, block.stderr
    config.write_text(block.stdout, encoding="utf-8")
    grown = (TEAM, _big_server(tmp_path / "warehouse.yaml"))
    for fmt in ("text", "markdown", "json"):
        result = run_cli("check", *grown, "--config", config, "--strict", "--context-lengths", "32k,200k,1m",
                         "--goal", "names", "--format", fmt)
        assert result.returncode == 1, (result.stdout, result.stderr)
        # the 300-tool server is the largest names block, so the reference collapses it first
        assert "collapsed to a summary line: warehouse" in result.stdout, result.stdout


def test_a_failure_with_exceptions_says_summary_as_the_table_does() -> None:
    # 100 tokens of context list nothing; the goal "any" accepts summary lines, and says so by that word
    result = run_cli("check", TEAM, "--context-lengths", "100", "--goal", "any", "--except", "github")
    assert result.returncode == 1, result.stderr
    assert "the goal needs summary or better" in result.stdout and "groups" not in result.stdout, result.stdout


# --- recorded sessions that ran on another catalog ------------------------------------------------
# A session recorded before Slack's server renamed slack_send_message (tests/data): the team-workspace
# sample lacks that tool, so "called tools listed by name" counts this catalog's listing, not the one
# the sessions ran on. (The shipped sample sessions were recorded on team-workspace: no drift.)
DRIFTED = "mcp__slack__slack_send_message"
RENAMED = ROOT / "tests" / "data" / "renamed-tool-sessions.json"


def test_the_report_says_the_sessions_ran_on_another_catalog(tmp_path) -> None:
    # the report is read in the review without the terminal's stderr: it must carry the warning
    out = tmp_path / "review.html"
    result = run_cli("report", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--sessions",
                     RENAMED, "--no-lint", "--no-strategies", "-o", out)
    assert result.returncode == 0, result.stderr
    assert "catalog drift" in result.stderr and DRIFTED in result.stderr
    section = out.read_text(encoding="utf-8").split("Recommended settings across context lengths", 1)[1]
    section = section.split("<h2", 1)[0]
    assert DRIFTED in section and "not the one the sessions ran on" in section, section[-3000:]


def test_the_tuning_page_says_the_sessions_ran_on_another_catalog() -> None:
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415

    from toolsearch.live.guard import launch_token  # noqa: PLC0415

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k,200k,1m"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_sessions_token").set_value(launch_token()).run()  # AppTest counts as another machine
    at.text_input(key="tuning_sessions_path").set_value(str(RENAMED)).run()
    at.button(key="tuning_sessions_read").click().run()
    assert not at.exception, at.exception
    warnings = [str(w.value).replace("\\", "") for w in at.warning]  # markdown escapes
    # in the page's own column names
    assert any(DRIFTED in w and "“called tools listed by name” and “searches saved” below count this catalog's listing, "
               "not the one the sessions ran on" in w for w in warnings), warnings
    # the Report page carries the Tuning page's question, and the drift with it
    at.switch_page("toolsearch/ui/report.py").run()
    at.toggle(key="report_lint").set_value(False).run()
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    section = at.session_state["report_html"].split("Recommended settings across context lengths", 1)[1]
    assert DRIFTED in section.split("<h2", 1)[0]


def test_why_a_server_is_not_named_calls_its_figure_a_budget_not_its_names() -> None:
    # cloudflare's names block is 44,768 tokens (plan's "names block (tokens)"); 46,241 is the budget of the
    # whole listing at names, which naming it takes (the reference collapses it first): two figures,
    # two names
    cloudflare = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
    plan = run_cli("plan", TEAM, cloudflare, "--context-length", "200k", "--json")
    names_block = next(s["names_tokens"] for s in __import__("json").loads(plan.stdout)["servers"]
                       if s["name"] == "cloudflare")
    result = run_cli("recommend", TEAM, cloudflare, "--context-lengths", "32k,200k,1m", "--goal", "names")
    line = next(x for x in result.stdout.splitlines() if x.startswith("not named: cloudflare"))
    assert f"{names_block:,}" not in line
    assert line.startswith("not named: cloudflare: naming it needs a budget of 46,241 tokens, more than the whole "
                           "32K context (32,000 tokens)"), line
    listed = run_cli("recommend", TEAM, "--context-lengths", "32k", "--goal", "listed")
    assert "not named: github: the goal allows a summary line at 32K; naming it needs a budget of 1,473 tokens" \
        in listed.stdout, listed.stdout


def test_a_context_length_that_is_not_a_round_figure_reads_whole() -> None:
    # "the whole 32K context" reads; "the whole 12,345 context" does not
    cloudflare = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
    result = run_cli("recommend", TEAM, cloudflare, "--context-lengths", "12345", "--goal", "names")
    assert result.returncode == 1, result.stderr
    assert "more than the whole context (12,345 tokens)" in result.stdout, result.stdout
    assert "the whole 12,345 context" not in result.stdout


def test_the_listing_curve_leaves_room_above_its_top_line_for_the_label() -> None:
    # Each dashed line's label sits above its right end. On a log axis 30 % more is a sliver of the
    # height (Team workspace + Cloudflare: the "full listing 84,887" label was cut by the plot's top).
    import math  # noqa: PLC0415

    from toolsearch.analysis.charts import listing_curve_figure  # noqa: PLC0415
    from toolsearch.analysis.sweep import curve_bounds, curve_context_lengths, form_grid, listing_ladder  # noqa: PLC0415
    from toolsearch.engine.config import parse_config  # noqa: PLC0415

    inspector = inspector_of([TEAM, ROOT / "sample_catalogs" / "cloudflare-flat.yaml"])
    config = parse_config({})
    ladder = listing_ladder(inspector.planner, config)
    low, high = curve_bounds(ladder, config.threshold_pct, config.listing_max_tokens, 8_000, 1_000_000)
    points = form_grid(ladder, config, curve_context_lengths(ladder, config.threshold_pct, config.listing_max_tokens,
                                                             low, high), [config.threshold_pct])
    sizes = ladder.sizes()
    fig = listing_curve_figure(points, sizes, 200_000)
    assert fig.layout.yaxis.type == "log"
    bottom, top = fig.layout.yaxis.range
    above = top - math.log10(max(sizes.values()))
    assert above >= 0.1 * (top - bottom), (bottom, top, sizes)  # a tenth of the height: a line of text


def test_the_goal_picker_says_what_each_goal_asks_of_the_listing() -> None:
    # "every server at names or better" is the page's own vocabulary: a newcomer needs the listing's
    # steps (full lines → names → one summary line → nothing) to choose between the goals
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    text = at.selectbox(key="tuning_multi_goal").help or ""
    for words in ("full lines", "names only", "one summary line", "every tool with its short description",
                  "at least one server named", "collapse"):
        assert words in text, text

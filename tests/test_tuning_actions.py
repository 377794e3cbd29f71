"""Where the tuning answer gives a reason, it also names the action that changes it: a tight setting
(0 % headroom) names the headroom control as each surface has it (``recommend --headroom PCT``, the
Tuning page's Headroom (%), the report naming both), and ``listing: off`` says to remove it from the
``tools.tool_search`` block, on every surface that gives that reason (``recommend``, its ``--yaml``
block, ``check``, the report)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, run_cli
from toolsearch.analysis.recommend import (LISTING_OFF_ACTION, NOT_REACHED_BLOCK_WORDS, request_cost_lines, headroom_action_words,
                                           recommend_for_contexts)
from toolsearch.analysis.report import build_report, esc
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config
from toolsearch.engine.scopes import parse_scope_arg

ROOT = Path(__file__).absolute().parent.parent
SAMPLE = ROOT / "sample_catalogs" / "team-workspace.yaml"
FIVE = ROOT / "sample_catalogs" / "five-servers.yaml"

TIGHT = ("headroom: 0% · tight: the budget equals the listing at every listed length, so any listing growth changes "
         "the listing there · to keep room for the catalog to grow, rerun with --headroom PCT: --headroom 10 keeps "
         "the budget at least 10% above the listing at every length")


def _line(stdout: str, start: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith(start))


def test_recommend_names_the_headroom_option_where_the_setting_is_tight() -> None:
    result = run_cli("recommend", SAMPLE, "--context-lengths", "32k,200k,1m", "--goal", "names")
    assert result.returncode == 0, result.stderr
    assert _line(result.stdout, "headroom: ") == TIGHT
    # the advice is taken: room kept, nothing more to advise
    result = run_cli("recommend", SAMPLE, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10")
    assert _line(result.stdout, "headroom: ") == ("headroom: 10% · absorbs 148 tokens of listing growth (about 17 "
                                                  "tools) at every listed length before the listing changes")
    # the pull-request comment carries the same line
    result = run_cli("recommend", SAMPLE, "--context-lengths", "32k,200k,1m", "--goal", "names", "--format", "markdown")
    assert f"- {TIGHT}" in result.stdout.replace("\\", "")


def test_the_tuning_page_names_its_own_headroom_field() -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"lengths": "32k,200k,1m", "goal": "names", "headroom": "0"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(inspector_of([SAMPLE]).planner, config),
                                 config, [32_000, 200_000, 1_000_000], "names")
    action = headroom_action_words(rec, "app")
    assert action == ("to keep room for the catalog to grow, set Headroom (%) above 0: a headroom of 10 keeps the "
                      "budget at least 10% above the listing at every length")
    captions = [c.value for c in at.caption if c.value.startswith("Headroom 0%")]
    assert captions == ["Headroom 0%: tight: the budget equals the listing at every listed length, so any listing "
                        "growth changes the listing there. To keep room for the catalog to grow, set Headroom (%) "
                        "above 0: a headroom of 10 keeps the budget at least 10% above the listing at every length."]
    # with room asked, no advice
    at.number_input(key="tuning_headroom").set_value(10.0).run()
    assert not [c for c in at.caption if "set Headroom (%)" in c.value]


def test_the_report_names_both_ways_to_ask_for_headroom() -> None:
    ins = inspector_of([SAMPLE])
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(ins.planner, config), config, [32_000, 200_000, 1_000_000], "names")
    html_text = build_report(ins, config, 32_000, recommendation=rec)
    line = TIGHT.replace("rerun with --headroom PCT: --headroom 10", "recommend again with --headroom PCT (the Tuning "
                         "page's Headroom (%)): a headroom of 10")
    assert line.endswith(headroom_action_words(rec, "report"))
    assert f"<li>{esc(line)}</li>" in html_text


def test_listing_off_says_what_to_remove(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"tools": {"tool_search": {"listing": "off"}}}), encoding="utf-8")
    args = (FIVE, "--config", config, "--context-lengths", "32k,200k", "--goal", "names")
    result = run_cli("recommend", *args)
    assert result.returncode == 1, result.stderr
    assert _line(result.stdout, "not reachable") == (
        "not reachable at every listed context length: listing is off, so no listing is ever embedded; to list "
        "tools, remove listing: off from the tools.tool_search block (its default, auto, embeds the listing)")
    # no headroom advice where nothing is listed: no headroom lists anything
    assert _line(result.stdout, "headroom: ") == "headroom: 0% · nothing is listed, so there is no listing growth to absorb"
    block = run_cli("recommend", *args, "--yaml").stdout
    assert f"# {LISTING_OFF_ACTION}\n" in block
    # the block keeps the settings, commented out as every block that misses its goal; the comment says why
    assert yaml.safe_load(block) is None
    assert yaml.safe_load("\n".join(line.removeprefix("# ") for line in block.split(f"{NOT_REACHED_BLOCK_WORDS}\n", 1)[1].splitlines())
                          )["tools"]["tool_search"]["listing"] == "off"
    check = run_cli("check", *args)
    assert check.returncode == 1
    assert check.stdout.splitlines()[-1] == ("no setting reaches it at every length: listing is off, so no listing is "
                                             f"ever embedded; {LISTING_OFF_ACTION}")


def _small_catalog(path: Path) -> Path:
    """Three tools on two servers: the bridge tools cost more than their schemas."""
    path.write_text(yaml.safe_dump({"name": "Small", "servers": [
        {"name": "jira", "tools": [
            {"name": "create_issue", "description": "Create a Jira issue in a project.",
             "inputSchema": {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}},
            {"name": "search_issues", "description": "Search issues with JQL.",
             "inputSchema": {"type": "object", "properties": {"jql": {"type": "string"}}, "required": ["jql"]}}]},
        {"name": "db", "tools": [
            {"name": "query", "description": "Run a read-only SQL query.",
             "inputSchema": {"type": "object", "properties": {"sql": {"type": "string"}}, "required": ["sql"]}}]}]}),
        encoding="utf-8")
    return path


def test_recommend_says_when_tool_search_costs_more_than_it_saves(tmp_path: Path) -> None:
    """``plan`` said "tool search adds N tokens per request here; consider enabled: off" for a small
    catalog, while ``recommend`` tuned the listing for it without a word: the same words now follow
    the headroom line (text, markdown, the --yaml block's comments and the report), with the lengths."""
    catalog = _small_catalog(tmp_path / "small.yaml")
    args = ("--context-lengths", "32k,128k,1m", "--goal", "full")
    plans = {n: run_cli("plan", catalog, "--context-length", n).stdout for n in ("32k", "128k", "1m")}
    words = {next(line for line in out.splitlines() if line.startswith("saved per request: "))
             .split(": ", 1)[1].split(" tokens: ", 1)[1] for out in plans.values()}
    assert len(words) == 1  # the listing is the same at every length: one figure
    (said,) = words
    assert said.startswith("tool search adds ") and said.endswith(" tokens per request here; consider enabled: off")
    result = run_cli("recommend", catalog, *args)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    line = f"at 32K, 128K and 1M: {said}"
    assert lines[lines.index(_line(result.stdout, "headroom: ")) + 1] == line
    assert f"- {line}" in run_cli("recommend", catalog, *args, "--format", "markdown").stdout
    assert f"# {line}\n" in run_cli("recommend", catalog, *args, "--yaml").stdout
    assert json.loads(run_cli("recommend", catalog, *args, "--json").stdout)["request_costs"] == [line]
    assert json.loads(run_cli("recommend", SAMPLE, "--context-lengths", "32k", "--goal", "names", "--json")
                      .stdout)["request_costs"] == []
    # the sample saves tokens: no such line
    sample = run_cli("recommend", SAMPLE, "--context-lengths", "32k,200k,1m", "--goal", "names").stdout
    assert "consider enabled: off" not in sample
    ins = inspector_of([catalog])
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(ins.planner, config), config, [32_000, 128_000, 1_000_000], "full")
    assert f"<li>{esc(line)}</li>" in build_report(ins, config, 32_000, recommendation=rec)


def test_the_tuning_page_warns_when_tool_search_costs_more() -> None:
    query = {"catalog": "hard-cases", "scope": "bot=billing", "lengths": "32k,200k", "goal": "names"}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    # the listing differs between the two lengths, and so does the figure: one warning each, from the
    # function recommend prints them with (recommend itself refuses this sample: it has a catalog error)
    ins = inspector_of([ROOT / "sample_catalogs" / "hard-cases.yaml"]).scoped(parse_scope_arg("bot=billing"))
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(ins.planner, config), config, [32_000, 200_000], "names")
    lines = request_cost_lines(rec, ins.planner, config)
    assert [line.split(": ", 1)[0] for line in lines] == ["at 32K", "at 200K"]
    assert all(line.endswith(" tokens per request here; consider enabled: off") for line in lines)
    warnings = [w.value.replace("\\", "") for w in at.warning if "consider enabled" in w.value]
    assert warnings == [line[0].upper() + line[1:] + "." for line in lines]
    assert all(f"# {line}\n" in at.code[0].value + "\n" for line in lines)


def test_a_length_too_short_for_any_request_is_said_by_plan_and_recommend(tmp_path: Path) -> None:
    """``--context-lengths 128`` (meant: 128k) was answered "Reached" with a budget of 44 tokens, though
    the tools array alone is larger than 128 tokens; ``plan`` said nothing either, while the Overview
    page warned. The page's words, now from one function, are on both commands."""
    catalog = _small_catalog(tmp_path / "small.yaml")
    plan = run_cli("plan", catalog, "--context-length", "500").stdout
    tools = int(_line(plan, "tools array with tool search: ").split(": ")[1].split(" tokens")[0].replace(",", ""))
    assert _line(plan, "note: the tools array") == (
        f"note: the tools array alone ({tools:,} tokens, chars4) is larger than the context length (500 tokens): "
        "no request with these settings fits the model")
    result = run_cli("recommend", catalog, "--context-lengths", "128,32k", "--goal", "names")
    assert result.returncode == 1, result.stderr  # reached at 32K, not at 128 tokens
    # no request fits 128 tokens whatever the settings: said once, first, and left out of the answer
    lines = result.stdout.splitlines()
    said = [line for line in lines if "tools array alone" in line]
    assert said == [lines[2]] and said[0].startswith("at 128 tokens no setting fits: the tools array alone (") and \
        said[0].endswith("is larger than the context length (128 tokens) with nothing listed, so no request fits the "
                         "model whatever threshold_pct and listing_max_tokens; this length is left out of the answer"), said
    # that length is written as the table writes it, "128 tokens", in every sentence: "at 128" read as a count
    out = result.stdout
    assert "context lengths 32K · " in _line(out, "goal: ")
    assert "at 128," not in out and "at 128:" not in out
    assert "# at 128 tokens no setting fits: " in run_cli("recommend", catalog, "--context-lengths", "128,32k",
                                                          "--goal", "names", "--yaml").stdout
    # a catalog the context holds: no such line on either
    assert "no request" not in run_cli("plan", catalog, "--context-length", "32k").stdout
    assert "no request" not in run_cli("recommend", SAMPLE, "--context-lengths", "32k", "--goal", "names").stdout
    # the sample needs tool search to fit 32K at all: plan says so, as the Overview page does
    assert _line(run_cli("plan", SAMPLE, "--context-length", "32k").stdout, "note: sending") == (
        "note: sending every schema up front (82,998 tokens, chars4) would not fit the context length (32K); with "
        "tool search the request fits")


def test_the_gate_line_run_before_the_block_is_merged_says_what_config_it_wants(tmp_path) -> None:
    """The ``gate:`` line names the harness ``config.yaml``, which holds the settings only once the
    block is merged: run before that, the error says what ``--config`` takes, and once the block is
    in that file the same line passes."""
    import shlex  # noqa: PLC0415

    result = run_cli("recommend", SAMPLE, "--context-lengths", "32k", "--goal", "names")
    assert result.returncode == 0, result.stderr
    gate = shlex.split(_line(result.stdout, "gate: ").removeprefix("gate: "))
    assert gate[:2] == ["toolsearch", "check"] and gate[gate.index("--config") + 1] == "config.yaml"
    early = run_cli(*gate[1:], cwd=tmp_path)
    assert early.returncode == 2 and early.stdout == ""
    assert early.stderr == ("toolsearch: error: config.yaml: cannot read config file (No such file or directory); "
                            "--config takes the harness config (config.yaml, with the tools.tool_search block merged "
                            "in) or the file `recommend --yaml` wrote\n")
    block = run_cli("recommend", SAMPLE, "--context-lengths", "32k", "--goal", "names", "--yaml")
    (tmp_path / "config.yaml").write_text(block.stdout, encoding="utf-8")
    merged = run_cli(*gate[1:], cwd=tmp_path)
    assert merged.returncode == 0, merged.stderr


def test_plan_json_carries_the_request_cost_notes_its_text_prints(tmp_path: Path) -> None:
    """``plan``'s text output notes where tool search costs more than it saves and where no request
    fits the context length; ``plan --json`` gives the same sentences as ``request_costs``, as
    ``recommend --json`` words them."""
    small = _small_catalog(tmp_path / "small.yaml")
    for catalog, length in ((small, "128k"), (SAMPLE, "128"), (SAMPLE, "200k"), (SAMPLE, "32k")):
        text = run_cli("plan", catalog, "--context-length", length)
        assert text.returncode == 0, text.stderr
        lines = text.stdout.splitlines()
        saved = _line(text.stdout, "saved per request: ")
        said = [saved.split(" tokens: ", 1)[1]] if " tokens: " in saved else []
        # first the tools array larger than the context, then the cost (as recommend orders them); not
        # the note that only sending every schema up front would not fit (tool search answers that)
        said = [line.removeprefix("note: ") for line in lines if line.startswith("note: the tools array alone")] + said
        data = json.loads(run_cli("plan", catalog, "--context-length", length, "--json").stdout)
        assert data["request_costs"] == said
        expected = {"128k": 1, "128": 1, "200k": 0, "32k": 0}[length]  # at 32K only the schemas up front overflow
        assert len(said) == expected, (catalog, length, said)

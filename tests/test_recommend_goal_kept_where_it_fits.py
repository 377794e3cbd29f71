"""The tuning answer, run as a new user runs it:

* a goal out of reach at a short length keeps the goal at the lengths where it fits (``full`` went to
  names at 200K when 3K could not hold it), and the per-length goal that is reached is suggested for
  every goal (``full`` had none), by ``recommend`` and ``check`` alike;
* a block that misses its goal is written commented out, with or without ``--headroom``, so a redirect
  leaves no file that looks shippable;
* the block's ``# gate:`` line says to use the block's own file until it is merged;
* a goal met only through built-in (non-MCP) tools is said;
* where the answer lists less than the default settings, the goal that keeps those lengths is given.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import yaml

from conftest import inspector_of, run_cli
from toolsearch.analysis.recommend import (NOT_REACHED_BLOCK_WORDS, keeping_goal, recommend_for_contexts,
                                           with_core_only)
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
FULL_3K = (TEAM, "--context-lengths", "3k,200k", "--goal", "full")
PER_LENGTH = ("per-length goal: a goal of its own for 3K keeps the goal at 200K (3k=names; on the command line "
              "--goal full,3k=names); that goal takes threshold_pct 49.1%, listing_max_tokens 3,656: a listing of "
              "1,473 tokens at 3K (49.1% of the context) and 3,656 tokens at 200K (1.8% of the context)")


def _ladder(*catalogs: Path):
    config = parse_config({})
    return listing_ladder(inspector_of(list(catalogs)).planner, config), config


def test_full_out_of_reach_at_3k_keeps_full_at_200k() -> None:
    done = run_cli("recommend", *FULL_3K)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert ("best reachable setting (9 of 9 servers named at every length, the goal kept at 200K, where it fits, and "
            "the fewest listing tokens): threshold_pct 49.1%, listing_max_tokens 3,656") in lines, done.stdout
    assert PER_LENGTH in lines, done.stdout
    assert "lists less than" not in done.stdout  # 200K keeps the full listing the defaults give it
    data = json.loads(run_cli("recommend", *FULL_3K, "--json").stdout)
    assert [(c["context_length"], c["listing_form"]) for c in data["contexts"]] == [(3_000, "names"),
                                                                                    (200_000, "full")]
    assert (data["threshold_pct"], data["listing_max_tokens"], data["lower_goal"]) == (49.1, 3_656, "full,3k=names")
    assert data["lower_than_current"] == []
    # the suggested goal is reached, with the settings the sentence gives
    followed = run_cli("recommend", TEAM, "--context-lengths", "3k,200k", "--goal", "full,3k=names", "--json")
    assert followed.returncode == 0
    assert (json.loads(followed.stdout)["threshold_pct"], json.loads(followed.stdout)["listing_max_tokens"]) == (
        49.1, 3_656)


def test_check_suggests_the_per_length_goal_for_full_too() -> None:
    done = run_cli("check", *FULL_3K, "--threshold-pct", "5")
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[-1] == (
        "no setting reaches it at every length: it needs a budget of 3,656 tokens, more than 100% of the shortest "
        "context length (3K); " + PER_LENGTH.removeprefix("per-length goal: "))
    data = json.loads(run_cli("check", *FULL_3K, "--threshold-pct", "5", "--json").stdout)
    assert data["suggestion"]["lower_goal"] == "full,3k=names"


def test_the_rule_keeps_the_goal_where_it_fits_and_the_most_at_the_short_length() -> None:
    ladder, config = _ladder(TEAM)
    rec = recommend_for_contexts(ladder, config, [3_000, 200_000], "full")
    alone = recommend_for_contexts(ladder, config, [3_000], "full")  # the most 3K can hold
    assert not rec.reached and rec.goal_kept_at == (200_000,)
    assert (rec.contexts[0].servers_named, rec.contexts[0].tools_named, rec.contexts[0].listing_tokens) == (
        alone.contexts[0].servers_named, alone.contexts[0].tools_named, alone.contexts[0].listing_tokens)
    assert rec.contexts[1].listing_form == "full" and rec.lower_goal == "full,3k=names"
    # names: the same rule (32K keeps every server named), and the suggestion as before; at 2K the request
    # leaves a budget of 923 tokens (the bridge and core tools alone take 1,160), so 6 of 9 servers are named
    names = recommend_for_contexts(ladder, config, [2_000, 32_000], "names")
    assert [c.servers_named for c in names.contexts] == [6, 9] and names.lower_goal == "names,2k=listed"
    assert all(ladder.request_fits(c.context_length, c.budget) for c in names.contexts)
    # no length fits the goal: nothing is kept and nothing suggested
    none = recommend_for_contexts(ladder, config, [1_000, 2_000], "full")
    assert none.goal_kept_at == () and none.lower_goal == ""


def _commented(text: str) -> None:
    assert yaml.safe_load(text) is None, text  # comments only: no settings to merge
    body = text.split(f"# {NOT_REACHED_BLOCK_WORDS}\n", 1)[1]
    assert re.fullmatch(r"# tools:\n#   tool_search:\n#     threshold_pct: [\d.]+\n#     listing_max_tokens: \d+\n",
                        body), body


def test_a_block_that_misses_its_goal_is_commented_out(tmp_path) -> None:
    for extra in ((), ("--headroom", "10")):
        done = run_cli("recommend", TEAM, "--context-lengths", "2k,32k", "--goal", "full", *extra, "--yaml")
        assert done.returncode == 1
        _commented(done.stdout)
        assert "# not reached: it needs a budget of " in done.stdout
        assert "a goal of its own for 2K keeps the goal at 32K (2k=listed;" in done.stdout
        assert done.stderr == f"toolsearch: note: {NOT_REACHED_BLOCK_WORDS}\n"
        # the file a redirect leaves fails the gate rather than gating defaults
        block = tmp_path / "tool_search.yaml"
        block.write_text(done.stdout, encoding="utf-8")
        gate = run_cli("check", TEAM, "--config", block, "--strict", "--context-lengths", "2k,32k", "--goal", "full")
        assert gate.returncode == 2, gate.stdout + gate.stderr
    reached = run_cli("recommend", TEAM, "--context-lengths", "32k,200k", "--goal", "names", "--yaml")
    assert reached.returncode == 0 and reached.stderr == ""
    assert set(yaml.safe_load(reached.stdout)["tools"]["tool_search"]) == {"threshold_pct", "listing_max_tokens"}


def test_the_gate_line_says_to_use_this_file_until_merged(tmp_path) -> None:
    done = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10",
                   "--yaml")
    lines = done.stdout.splitlines()
    gate = next(i for i, line in enumerate(lines) if line.startswith("# gate: "))
    assert lines[gate + 1] == "# until this block is merged into config.yaml, run the gate with --config set to this file"
    # as it says: in a fresh folder the gate line as written has no config.yaml, the block's file works
    block = tmp_path / "tool_search.yaml"
    block.write_text(done.stdout, encoding="utf-8")
    words = shlex.split(lines[gate].removeprefix("# gate: "))
    assert run_cli(*words[1:], cwd=tmp_path).returncode == 2
    words[words.index("--config") + 1] = str(block)
    assert run_cli(*words[1:], cwd=tmp_path).returncode == 0


CORE_ONLY = ("only built-in tools named at 8K, 32K and 200K: the goal is met by the tools of core alone (not an MCP "
             "server), and every MCP server is a summary line there; to have an MCP server's tools named, ask for it "
             "with --goal names or --keep SERVER (the answer then says whether those lengths can name it)")


def test_a_listed_goal_met_by_core_alone_is_said() -> None:
    args = (TEAM, "--context-lengths", "8k,32k,200k", "--goal", "listed")
    done = run_cli("recommend", *args)
    assert done.returncode == 0 and CORE_ONLY in done.stdout.splitlines(), done.stdout
    data = json.loads(run_cli("recommend", *args, "--json").stdout)
    assert data["core_only"] == [{"context_length": n, "servers": ["core"]} for n in (8_000, 32_000, 200_000)]
    assert f"# {CORE_ONLY}" in run_cli("recommend", *args, "--yaml").stdout.splitlines()
    # an MCP server named: nothing to say
    kept = json.loads(run_cli("recommend", *args, "--keep", "slack", "--json").stdout)
    assert kept["core_only"] == []


def test_core_only_rule() -> None:
    ladder, config = _ladder(TEAM)
    rec = recommend_for_contexts(ladder, config, [8_000, 200_000], "listed")
    kinds = {"core": "core"}
    assert with_core_only(rec, ladder, kinds).core_only == ((8_000, ("core",)), (200_000, ("core",)))
    assert with_core_only(rec, ladder, {}).core_only == ()  # core counted as an MCP server: it is one named
    names = recommend_for_contexts(ladder, config, [8_000, 200_000], "names")
    assert with_core_only(names, ladder, kinds).core_only == ()


STEP_2 = (TEAM, "--context-lengths", "32000,200000,1000000", "--goal", "names", "--headroom", "10")


def test_where_the_answer_lists_less_it_gives_the_goal_that_keeps_it() -> None:
    done = run_cli("recommend", *STEP_2)
    line = next(x for x in done.stdout.splitlines() if x.startswith("lists less than the default settings"))
    assert (" · --goal names,200k=full,1m=full keeps what the default settings list at 200K and 1M; that goal "
            "takes threshold_pct 5.1%, listing_max_tokens 4,022: ") in line, line
    data = json.loads(run_cli("recommend", *STEP_2, "--json").stdout)
    assert data["keeping_goal"]["goal"] == "names,200k=full,1m=full"
    assert data["keeping_goal"]["context_lengths"] == [200_000, 1_000_000] and data["keeping_goal"]["still_lower"] == []
    assert data["keeping_goal"]["cost"] in line
    block = run_cli("recommend", *STEP_2, "--yaml").stdout
    assert "· --goal names,200k=full,1m=full keeps what the default settings list at 200K and 1M;" in block
    # that goal is reached and lists no less than the defaults anywhere
    kept = json.loads(run_cli("recommend", *STEP_2[:-4], "--goal", "names,200k=full,1m=full", "--headroom", "10",
                              "--json").stdout)
    assert kept["reached"] and kept["lower_than_current"] == [] and kept["keeping_goal"] is None
    assert (kept["threshold_pct"], kept["listing_max_tokens"]) == (data["keeping_goal"]["threshold_pct"],
                                                                   data["keeping_goal"]["listing_max_tokens"])
    # README names the same goal
    assert "`names,200k=full,1m=full`" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_keeping_goal_rule() -> None:
    ladder, config = _ladder(TEAM)
    rec = recommend_for_contexts(ladder, config, [8_000, 32_000, 200_000], "listed")
    keeping = keeping_goal(ladder, config, rec)
    assert keeping is not None and keeping.goal.startswith("listed,")
    assert keeping.lengths == (8_000, 32_000, 200_000)
    # nothing lowered: nothing to keep
    same = recommend_for_contexts(ladder, config, [200_000], "full")
    assert keeping_goal(ladder, config, same) is None


def test_the_built_in_only_line_claims_no_answer_it_does_not_check(tmp_path) -> None:
    """The line suggests what to ask for, not that it is reached: at 8K with 200% headroom neither
    --goal names nor --keep slack is reached (no listing keeps that room there), and the line says so
    only as the answer to come."""
    args = (TEAM, "--context-lengths", "8k,32k,200k", "--goal", "listed")
    line = next(line for line in run_cli("recommend", *args).stdout.splitlines() if line.startswith("only built-in"))
    assert "lists an MCP server" not in line and line.endswith("(the answer then says whether those lengths can name it)")
    for extra in (["--goal", "names"], ["--goal", "listed", "--keep", "slack"]):
        asked = json.loads(run_cli("recommend", TEAM, "--context-lengths", "8k", *extra,
                                   "--headroom", "200", "--json").stdout)
        assert asked["reached"] is False and asked["core_only"] == []


def test_the_report_carries_the_built_in_only_line(tmp_path) -> None:
    """toolsearch report: the recommendation's lines include the built-in-only line, from the same
    function recommend prints it with (core_only_lines over with_core_only)."""
    import html

    done = run_cli("report", TEAM, "--context-lengths", "8k,32k,200k", "--goal", "listed", "--no-lint",
                   "--no-strategies", "-o", str(tmp_path / "report.html"))
    assert done.returncode == 0, done.stderr
    text = html.unescape((tmp_path / "report.html").read_text(encoding="utf-8"))
    assert f"<li>{CORE_ONLY}</li>" in text

"""A context length no request fits whatever the settings (the tools array with nothing listed, the
visible tools and the bridge tools, is larger than it) does not drive ``recommend``'s answer: it is said
first, once, left out, and listed under ``unfit_lengths`` in ``--json``; ``check`` fails there with the
same words. The ``not named`` lines name the first servers and count the rest.

Before: a 2K length beside 200K gave "best reachable" settings chosen for a length where nothing fits,
and the overflow was said only further down, as a cost of those settings."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from conftest import run_cli
from toolsearch.engine.catalog import MAX_NAMED_PROBLEMS

UNFIT = ("at 2K no setting fits: the tools array alone (2,305 tokens, chars4) is larger than the context length "
         "(2K) with nothing listed, so no request fits the model whatever threshold_pct and listing_max_tokens; "
         "this length is left out of the answer")


def fit_catalog(folder: Path, name: str = "fit") -> Path:
    """15 built-in (visible) tools whose schemas alone take 2,305 tokens (chars4), beside three MCP
    servers of five deferred tools each: no request fits 2K, whatever the settings."""
    servers = [{"name": "core", "kind": "core", "tools": [
        {"name": f"builtin_{i}", "description": "Builtin tool that does a thing with a fairly long description. " * 4,
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "A path"}}}}
        for i in range(15)]}]
    servers += [{"name": f"srv{s}", "tools": [{"name": f"do_{s}_{i}", "description": "Does something useful.",
                                              "inputSchema": {"type": "object"}} for i in range(5)]} for s in range(3)]
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"servers": servers}), encoding="utf-8")
    return path


def many_servers_catalog(folder: Path, name: str = "many") -> Path:
    """250 MCP servers of two short tools each: naming them all takes 2,833 tokens (chars4), so at 2K
    every server is left unnamed."""
    servers = [{"name": f"s{s:03d}", "tools": [{"name": f"t{i}", "description": "Does a thing.",
                                                "inputSchema": {"type": "object"}} for i in range(2)]}
               for s in range(250)]
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"servers": servers}), encoding="utf-8")
    return path


def test_an_unfit_length_is_said_first_and_left_out(tmp_path):
    catalog = fit_catalog(tmp_path)
    done = run_cli("recommend", catalog, "--context-lengths", "2k,200k", "--goal", "names")
    # reached at 200K, the length the answer is for, and not at 2K: exit 1, as check fails there
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Reached at the context length 200K; not at 2K, which no request fits whatever the settings."
    assert lines[1].startswith("goal: every server at names or better · context lengths 200K ·")
    assert lines[2] == UNFIT  # the first finding
    assert done.stdout.count("no setting fits") == 1  # said once
    assert "no request with these settings fits" not in done.stdout
    assert "threshold_pct: 0.1" in lines and "listing_max_tokens: 200" in lines
    assert not any(line.startswith("2K ") for line in lines)  # not a row of the table
    assert "--context-lengths 200k --goal names" in done.stdout  # the gate checks what the answer is for

    data = json.loads(run_cli("recommend", catalog, "--context-lengths", "2k,200k", "--goal", "names",
                              "--json").stdout)
    assert data["unfit_lengths"] == [{"context_length": 2000, "tools_tokens": 2305, "tokenizer": "chars4",
                                      "reserve_tokens": 0,
                                      "reason": UNFIT[len("at 2K "):-len("; this length is left out of the answer")]}]
    assert [c["context_length"] for c in data["contexts"]] == [200000]
    assert data["reached"] is True and data["request_costs"] == [
        "at 200K: tool search adds 354 tokens per request here; consider enabled: off"]
    # every length fits: the key is there, empty
    fits = json.loads(run_cli("recommend", catalog, "--context-lengths", "200k", "--goal", "names", "--json").stdout)
    assert fits["unfit_lengths"] == []


def test_every_length_unfit_is_a_clear_answer_and_exit_1(tmp_path):
    catalog = fit_catalog(tmp_path)
    done = run_cli("recommend", catalog, "--context-lengths", "2k,1500", "--goal", "any")
    assert done.returncode == 1, done.stderr  # as for a goal out of reach
    lines = done.stdout.splitlines()
    assert lines[0] == "Not reached at every listed context length: no setting fits a request there."
    assert lines[2] == UNFIT
    assert lines[3].startswith("at 1,500 tokens no setting fits: the tools array alone (2,305 tokens, chars4)")
    assert lines[4] == ("not reachable at every listed context length: no listed context length fits a request, "
                        "whatever threshold_pct and listing_max_tokens: the current settings are kept; send fewer "
                        "tools up front (defer more of them) or list longer context lengths")
    assert "best reachable setting" not in done.stdout
    data = json.loads(run_cli("recommend", catalog, "--context-lengths", "2k,1500", "--goal", "any", "--json").stdout)
    assert [u["context_length"] for u in data["unfit_lengths"]] == [2000, 1500]
    assert data["reached"] is False
    assert (data["threshold_pct"], data["listing_max_tokens"]) == (5.0, 4000)  # the current settings kept


def test_check_fails_at_an_unfit_length(tmp_path):
    catalog = fit_catalog(tmp_path)
    # the listing there is full (goal any holds by the form alone): the length fails because nothing fits
    done = run_cli("check", catalog, "--context-lengths", "2k,200k", "--goal", "any", "--threshold-pct", "50")
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("toolsearch check failed at 2K: no request fits · checked")
    assert any(line.startswith("2K ") and line.endswith("FAILS, no request fits") for line in lines)
    assert f"at 2K: {UNFIT[len('at 2K '):-len('; this length is left out of the answer')]}" in lines
    assert any(line.startswith("settings that reach it at 200K:") for line in lines)
    data = json.loads(run_cli("check", catalog, "--context-lengths", "2k,200k", "--goal", "any",
                              "--threshold-pct", "50", "--format", "json").stdout)
    assert data["passed"] is False and data["missed"] == ["no request fits"]
    assert [c["holds"] for c in data["contexts"]] == [False, True]
    assert [u["context_length"] for u in data["suggestion"]["unfit_lengths"]] == [2000]
    # a length every request fits is checked as before
    assert run_cli("check", catalog, "--context-lengths", "200k", "--goal", "any", "--threshold-pct", "50").returncode == 0


def test_not_named_lines_name_the_first_servers_and_count_the_rest(tmp_path):
    catalog = many_servers_catalog(tmp_path)
    args = ("recommend", catalog, "--context-lengths", "2k", "--goal", "names")
    data = json.loads(run_cli(*args, "--json").stdout)
    assert len(data["unnamed"]) == 250  # --json keeps every one
    text = run_cli(*args).stdout.splitlines()
    named = [line for line in text if line.startswith("not named: ")]
    assert named == [f"not named: {u['reason']}" for u in data["unnamed"][:MAX_NAMED_PROBLEMS]]
    assert text[text.index(named[-1]) + 1] == "… and 150 more servers not named at 2K"
    # the manual says how many are named
    assert f"name the first {MAX_NAMED_PROBLEMS} and count the rest" in (
        Path(__file__).resolve().parent.parent / "docs" / "tuning.md").read_text(encoding="utf-8").replace("\n", " ")


def test_the_verdict_names_the_lengths_the_answer_is_for():
    """With a listed length left out, the verdict named 'every listed context length', right under the
    line saying one of them fits no request; it names the lengths the answer is for, on the command
    line and on the Tuning page (one function)."""
    team = Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml"
    lines = run_cli("recommend", team, "--context-lengths", "1k,32k,200k", "--goal", "names").stdout.splitlines()
    assert lines[0] == ("Reached at the context lengths 32K and 200K; not at 1K, which no request fits whatever the "
                        "settings."), lines[:3]
    assert lines[2].startswith("at 1K no setting fits: ")
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415
    at = AppTest.from_file(str(team.parent.parent / "app.py"), default_timeout=180)
    at.query_params.update({"catalog": "team-workspace", "lengths": "1k,32k,200k", "goal": "names"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    # a warning, not a success: the goal is not reached at every length listed
    assert [w.value for w in at.warning if w.value.startswith("Reached")] == [
        "Reached at the context lengths 32K and 200K; not at 1K, which no request fits whatever the settings."]
    assert not [s.value for s in at.success if s.value.startswith("Reached")]


def test_a_block_for_the_lengths_that_fit_exits_1_and_says_why():
    """``recommend --yaml`` with a listed length no request fits: the block is the answer for the other
    lengths (not commented out), and the command exits 1 with a note, as ``check`` fails at that length;
    it exited 0, so a longer length added to a failing list turned it into a success."""
    team = Path(__file__).resolve().parent.parent / "sample_catalogs" / "team-workspace.yaml"
    done = run_cli("recommend", team, "--context-lengths", "1k,8k", "--goal", "names", "--yaml")
    assert done.returncode == 1
    assert yaml.safe_load(done.stdout)["tools"]["tool_search"]["threshold_pct"] == 18.5
    assert done.stderr == ("toolsearch: note: Reached at the context length 8K; not at 1K, which no request fits "
                           "whatever the settings.\n")
    alone = run_cli("recommend", team, "--context-lengths", "1k", "--goal", "names")
    assert alone.returncode == 1
    gate = run_cli("check", team, "--context-lengths", "1k,8k", "--goal", "names", "--threshold-pct", "18.5",
                   "--listing-max-tokens", "1473")
    assert gate.returncode == 1 and "no request fits" in gate.stdout

"""A reserve for the conversation (``--reserve PCT``, the Tuning page's *Reserve (%)*): the share of every
context length the tools array must leave free for the system prompt, the conversation and the reply.
Without it the answer could fill a context with the listing: a 10-server, 1,500-tool catalog at 32K got
threshold_pct 51.6% and a 17,253-token tools array with exit 0, and a 3,000-tool one left 94 tokens."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import yaml

from conftest import inspector_of, run_cli
from toolsearch.analysis.check import check_catalog
from toolsearch.analysis.recommend import GOALS, recommend_for_contexts
from toolsearch.analysis.sweep import listing_ladder, plan_at_budget
from toolsearch.engine.config import parse_config

SAMPLES = Path(__file__).resolve().parent.parent / "sample_catalogs"
TEAM = SAMPLES / "team-workspace.yaml"


@pytest.fixture(scope="module")
def synth(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("reserve") / "s1500.json"
    done = run_cli("synth", "--tools", "1500", "--servers", "10", "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("reserve", [10, 50, 87.5])
@pytest.mark.parametrize("context_length", [2_500, 4_000, 8_000])
def test_the_limit_is_the_last_budget_whose_request_leaves_the_reserve(reserve: float, context_length: int) -> None:
    inspector = inspector_of([TEAM])
    config = parse_config({})
    ladder = listing_ladder(inspector.planner, config, reserve_pct=reserve)
    space = context_length - math.ceil(reserve * context_length / 100)
    assert ladder.reserve_tokens(context_length) == context_length - space
    fitting = [b for b in range(0, context_length + 1, 7)
               if plan_at_budget(inspector.planner, config, b).tools_tokens <= space]
    limit = ladder.request_limit(context_length)
    if limit is not None and plan_at_budget(inspector.planner, config, 0).tools_tokens <= space:
        assert max(fitting) <= limit  # every budget whose request keeps the reserve is within the limit
        assert plan_at_budget(inspector.planner, config, limit).tools_tokens <= space
        if limit < context_length:
            assert plan_at_budget(inspector.planner, config, limit + 1).tools_tokens > space


@pytest.mark.parametrize("catalog", ["team-workspace.yaml", "github-full.yaml", "cloudflare-flat.yaml"])
@pytest.mark.parametrize("goal", GOALS)
@pytest.mark.parametrize("reserve", [25, 50])
def test_no_answer_takes_the_reserve(catalog: str, goal: str, reserve: int) -> None:
    inspector = inspector_of([SAMPLES / catalog])
    config = parse_config({})
    ladder = listing_ladder(inspector.planner, config, reserve_pct=reserve)
    lengths = [8_000, 32_000, 200_000]
    for chosen in ([lengths[0]], lengths[:2], lengths):
        rec = recommend_for_contexts(ladder, config, chosen, goal)
        assert rec.reserve_pct == reserve
        unfit = {u.context_length for u in rec.unfit}
        for c, tools in zip(rec.contexts, rec.tools_tokens):
            if c.context_length in unfit:
                continue
            sent = inspector.planner.plan(rec.apply(config), c.context_length).tools_tokens
            assert sent == tools and sent <= c.context_length * (100 - reserve) / 100, (chosen, c)
        if rec.reached and not rec.unfit:  # check, with the same reserve, agrees
            result = check_catalog(inspector, rec.apply(config), chosen, goal, "chars4", reserve_pct=reserve)
            assert result.passed, [lc.failures for lc in result.lengths]


def test_the_answer_keeps_the_reserve_and_says_so(synth: Path) -> None:
    plain = run_cli("recommend", str(synth), "--context-lengths", "32k,128k,200k", "--goal", "names")
    assert plain.returncode == 0, plain.stderr
    assert "or a reserve for the conversation (--reserve PCT), leaves it more room" in plain.stdout
    done = run_cli("recommend", str(synth), "--context-lengths", "32k,128k,200k", "--goal", "names",
                   "--reserve", "50")
    assert done.returncode == 1, done.stdout  # naming every server at 32K needs more than half of it
    lines = done.stdout.splitlines()
    assert ("not reachable at every listed context length: it needs a budget of 16,499 tokens, more than the largest "
            "budget whose request fits the 32K context with its 50% reserve (16,498 tokens)") in lines, done.stdout
    reserve = next(x for x in lines if x.startswith("reserve: "))
    assert reserve.startswith("reserve: 50% of every context length kept free of the tools array, for the system "
                              "prompt, the conversation and the reply · the tools array leaves "), reserve
    data = json.loads(run_cli("recommend", str(synth), "--context-lengths", "32k,128k,200k", "--goal", "names",
                              "--reserve", "50", "--json").stdout)
    assert data["reserve_pct"] == 50
    for c in data["contexts"]:
        assert c["tools_tokens"] <= c["context_length"] // 2
    least = min(c["context_length"] - c["tools_tokens"] for c in data["contexts"])
    assert f"the tools array leaves {least:,} tokens at 32K, the least" in reserve


def test_the_gate_line_keeps_the_reserve_and_passes_on_the_block(synth: Path, tmp_path: Path) -> None:
    args = ("--context-lengths", "128k,200k", "--goal", "names", "--reserve", "50")
    done = run_cli("recommend", str(synth), *args, "--yaml")
    assert done.returncode == 0, done.stderr
    block = tmp_path / "config.yaml"
    block.write_text(done.stdout)
    assert "# reserve: 50% of every context length kept free of the tools array" in done.stdout
    gate = next(x for x in done.stdout.splitlines() if x.startswith("# gate: "))
    assert gate.endswith("--goal names --reserve 50"), gate
    check = run_cli("check", str(synth), "--config", str(block), "--strict", *args)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "50% of each context length reserved" in check.stdout.splitlines()[0]


def test_check_fails_settings_that_take_the_reserve(synth: Path) -> None:
    args = (str(synth), "--threshold-pct", "56.8", "--listing-max-tokens", "18149", "--context-lengths", "32k,200k",
            "--goal", "names")
    assert run_cli("check", *args).returncode == 0  # without a reserve the 17,253-token tools array fits 32K
    done = run_cli("check", *args, "--reserve", "50")
    assert done.returncode == 1, done.stdout
    assert done.stdout.startswith("toolsearch check failed at 32K: reserve missed")
    assert ("at 32K: the tools array with this listing (17,253 tokens, chars4) leaves less than the 50% reserve "
            "(16,000 tokens) of the context length (32K): no request with these settings keeps it") in done.stdout
    github = run_cli("check", *args, "--reserve", "50", "--format", "github")
    assert "::error title=toolsearch check%3A reserve missed," in github.stdout
    data = json.loads(run_cli("check", *args, "--reserve", "50", "--format", "json").stdout)
    assert data["reserve_pct"] == 50 and data["suggestion"]["reserve_pct"] == 50


def test_a_length_whose_reserve_leaves_no_room_for_the_tools_array_is_left_out() -> None:
    done = run_cli("recommend", str(TEAM), "--context-lengths", "4k,32k", "--goal", "any", "--reserve", "90")
    assert done.returncode == 1, done.stdout
    assert any(x.startswith("at 4K no setting fits: the tools array alone (") and "leaves less than the 90% reserve "
               "(3,600 tokens) of the context length (4K) with nothing listed" in x
               for x in done.stdout.splitlines()), done.stdout


@pytest.mark.parametrize("value, words", [("95", "expected 0 to 90 (%), got '95'"), ("-1", "expected 0 to 90 (%)"),
                                          ("half", "expected a percentage such as 10 or 10%, got 'half'"),
                                          ("12.345", "at most two decimals")])
def test_a_reserve_out_of_range_is_refused(value: str, words: str) -> None:
    for command in ("recommend", "check"):
        done = run_cli(command, str(TEAM), "--context-lengths", "32k", "--goal", "any", f"--reserve={value}")
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_report_takes_the_reserve_with_the_goal_only(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    done = run_cli("report", str(TEAM), "--reserve", "20", "-o", str(out))
    assert done.returncode == 2 and "--reserve: only with --goal and --context-lengths" in done.stderr, done.stderr


def test_the_yaml_block_parses_and_names_its_settings(synth: Path) -> None:
    done = run_cli("recommend", str(synth), "--context-lengths", "128k", "--goal", "names", "--reserve", "50", "--yaml")
    block = yaml.safe_load(done.stdout)
    assert set(block["tools"]["tool_search"]) >= {"threshold_pct", "listing_max_tokens"}


def test_the_figures_docs_quote_are_the_tools(synth: Path) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "tuning.md").read_text()
    section = docs[docs.index("## Reserve for the conversation"):docs.index("## The exported block")]
    section = " ".join(section.split())
    plain = json.loads(run_cli("recommend", str(synth), "--context-lengths", "32k,128k,200k", "--goal", "names",
                               "--json").stdout)
    assert f"`threshold_pct` {plain['threshold_pct']} and a {plain['contexts'][0]['tools_tokens']:,}-token" in section
    reserved = run_cli("recommend", str(synth), "--context-lengths", "128k,200k", "--goal", "names", "--reserve", "50")
    line = next(x for x in reserved.stdout.splitlines() if x.startswith("reserve: "))
    quoted = section.split("(`reserve: ")[1].split("`)")[0]
    head, tail = quoted.split(", … · ")
    assert line.startswith("reserve: " + head) and line.endswith(tail), (line, quoted)
    check = run_cli("check", str(synth), "--threshold-pct", "56.8", "--listing-max-tokens", "18149",
                    "--context-lengths", "32k", "--goal", "names", "--reserve", "50")
    quoted = section.split("`reserve missed`: `")[1].split("`)")[0]
    assert quoted in " ".join(check.stdout.split()), check.stdout


@pytest.mark.parametrize("value, words", [("1e-400", "at most two decimals"), ("1e-20", "at most two decimals"),
                                          ("50%%", "expected a percentage such as 10 or 10%, got '50%%'"),
                                          ("nan", "expected a percentage such as 10 or 10%, got 'nan'"),
                                          ("NaN%", "expected a percentage such as 10 or 10%"),
                                          ("inf", "expected a percentage such as 10 or 10%")])
def test_a_percentage_that_is_not_one_is_refused_in_its_own_words(value: str, words: str) -> None:
    for option in ("--reserve", "--headroom"):
        done = run_cli("recommend", str(TEAM), "--context-lengths", "32k", "--goal", "any", f"{option}={value}")
        assert done.returncode == 2 and words in done.stderr, (option, done.stderr)


def test_minus_zero_is_zero() -> None:
    data = json.loads(run_cli("recommend", str(TEAM), "--context-lengths", "32k", "--goal", "any", "--reserve=-0",
                              "--json").stdout)
    assert data["reserve_pct"] == 0 and str(data["reserve_pct"]) == "0.0"


def test_an_unknown_length_is_said_to_keep_no_reserve() -> None:
    done = run_cli("recommend", str(TEAM), "--context-lengths", "unknown,8k", "--goal", "names", "--reserve", "50")
    line = next(x for x in done.stdout.splitlines() if x.startswith("reserve: "))
    assert line.startswith("reserve: 50% of every context length kept free of the tools array, for the system prompt, "
                           "the conversation and the reply (none at an unknown length, whose size is not known)"), line


def test_the_report_headline_names_the_reserve(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    done = run_cli("report", str(TEAM), "--context-lengths", "4k,32k", "--goal", "names", "--reserve", "50",
                   "--headroom", "10", "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = " ".join(out.read_text().split())
    assert ("context lengths 4K, 32K; 10% headroom; 50% of each context length reserved)") in text


def test_when_no_length_keeps_the_reserve_the_block_says_it_holds_the_current_settings() -> None:
    done = run_cli("recommend", str(SAMPLES / "unreal-editor.yaml"), "--context-lengths", "2k", "--goal", "full",
                   "--reserve", "90", "--yaml")
    assert done.returncode == 1
    comments = done.stdout.splitlines()
    assert "# headroom: 0% · not weighed: no listed length fits a request, so the current settings are kept" in comments
    assert any(x.startswith("# not reached: no listed context length fits a request that keeps its reserve, whatever "
                            "threshold_pct and listing_max_tokens: the current settings are kept; send fewer tools up "
                            "front (defer more of them), reserve less or list longer context lengths") for x in comments)
    assert ("# no listed context length fits a request, so the block is commented out: it holds the current settings, "
            "kept, not a setting that reaches anything") in comments
    assert "best reachable" not in done.stdout + done.stderr


def test_check_json_gives_the_tools_array_each_length_is_judged_on(synth: Path) -> None:
    args = (str(synth), "--threshold-pct", "56.8", "--listing-max-tokens", "18149", "--context-lengths", "32k,200k",
            "--goal", "names", "--reserve", "50", "--format", "json")
    data = json.loads(run_cli("check", *args).stdout)
    first = data["contexts"][0]
    assert first["tools_tokens"] == 17_253 and "(17,253 tokens, chars4)" in first["failures"][0]
    plan = json.loads(run_cli("plan", str(synth), "--threshold-pct", "56.8", "--listing-max-tokens", "18149",
                              "--context-length", "32k", "--json").stdout)
    assert plan["tools_tokens"] == first["tools_tokens"]

"""The recommendation a reviewer can defend: listing outcomes by counts, per-server requirements
(``--except``, ``--keep``), headroom, the exported config block with its provenance, and recorded
sessions as evidence (``recommend --sessions``, on stores written by Hermes itself).

Small cases are worked out by hand from the spec (chars4 = ceil(characters / 4)) and checked by
brute force over every setting; the large case is the default sample plus the Cloudflare sample
served at 32K, 200K and 1M, checked against full plans.
"""

from __future__ import annotations

from dataclasses import replace

import json
import shlex
from pathlib import Path

import pytest
import yaml

from conftest import inspector_of, registration, run_cli, write_yaml
from test_sessions import search_response, tool_calls, write_store
from toolsearch import __version__
from toolsearch.analysis.recommend import (check_command, suggestion_cost_words, export_block, lowered_changes, lowered_lengths, outcome_change, outcomes,
                                           recommend_for_contexts, GOAL_FORMS)
from toolsearch.analysis.sweep import FORM_RANK, listing_ladder, plan_counts
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.plan import Planner, listing_budget
from toolsearch.engine.registration import make_tool
from toolsearch.live.client import catalog_key

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
LENGTHS = [32_000, 200_000, 1_000_000]

# Same two servers as tests/test_recommend.py: "big" (60 tools) and "small" (1 tool); candidates
# full 257, names 104, mixed (big collapsed) 41, groups 52 tokens.
BIG = [(f"t{i:02d}", "Run it.") for i in range(60)]
SMALL = [("s1", "Ping.")]


def _planner() -> Planner:
    tools = [make_tool(n, d, server="big") for n, d in BIG] + [make_tool(n, d, server="small") for n, d in SMALL]
    return Planner(registration(tools))


@pytest.fixture(scope="module")
def small_ladder():
    # the budget arithmetic at lengths of tens of tokens, shorter than the bridge tools: the tools array is
    # not weighed here (no request fits them, so recommend leaves them out: tests/test_recommend_unfit_lengths.py)
    return replace(listing_ladder(_planner(), parse_config({})), bare_tools_tokens=0, request_tokens_at=None)


@pytest.fixture(scope="module")
def combined():
    inspector = inspector_of([TEAM, CLOUDFLARE])
    return inspector, listing_ladder(inspector.planner, parse_config({}))


# --- counts, never "mixed" alone -------------------------------------------------------------

@pytest.mark.parametrize("budget, label, short", [
    (300, "full · 2 of 2 servers named (61 tools)", "full"),
    (104, "names · 2 of 2 servers named (61 tools)", "names"),
    (41, "mixed · 1 of 2 servers named (1 tool)", "mixed 1/2"),
    (40, "none · nothing listed (0 of 2 servers named)", "none"),
])
def test_listing_counts_label(small_ladder, budget, label, short) -> None:
    counts = small_ladder.counts_at(budget)
    assert (counts.label, counts.short_label) == (label, short)
    # the same counts from a full plan at that budget
    plan = _planner().plan(parse_config({"threshold_pct": 100, "listing_max_tokens": 60_000}), max(budget, 1))
    assert plan.budget == budget
    assert plan_counts(plan) == counts


def test_sweep_and_the_tuning_grid_show_one_short_form() -> None:
    """docs/tuning.md says the Tuning page's grids and ``sweep``'s table show the same short form;
    ``sweep`` printed ``full 9/9`` and ``names 9/9`` where the grid shows ``full`` and ``names``."""
    import re  # noqa: PLC0415
    from html import unescape  # noqa: PLC0415
    from toolsearch.analysis.quantities import length_label  # noqa: PLC0415
    from toolsearch.analysis.sweep import DEFAULT_CONTEXT_LENGTHS, DEFAULT_THRESHOLD_PCTS, form_grid  # noqa: PLC0415
    from toolsearch.ui.tables import form_grid_html  # noqa: PLC0415

    done = run_cli("sweep", TEAM)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    head = re.split(r"  +", lines[0])
    form = head.index("listing_form")
    printed = {}
    *rows, key = lines[2:]  # the key to the mixed counts under the table, the grid's own
    for line in rows:
        cells = re.split(r"  +", line)
        length = {length_label(n): n for n in DEFAULT_CONTEXT_LENGTHS}[cells[0]]  # written as recommend writes it
        printed[(length, float(cells[1]))] = cells[form]
    ladder = listing_ladder(inspector_of([TEAM]).planner, parse_config({}))
    grid = form_grid_html(form_grid(ladder, parse_config({}), DEFAULT_CONTEXT_LENGTHS, DEFAULT_THRESHOLD_PCTS), key="t")
    shown = {(int(c), float(y)): unescape(text) for c, y, text in re.findall(
        r'<td[^>]*data-context-length="(\d+)" data-y="([\d.]+)"[^>]*>([^<]*)</td>', grid)}
    assert shown and shown == printed
    # the key to the counts in the grid's words (each names its own first mixed cell)
    words = r"“mixed (\d+)/(\d+)”: \1 of \2 servers named, the rest as summary lines"
    assert re.fullmatch("listing_form " + words, key), key
    assert re.search(words, unescape(grid)), grid[-300:]
    assert {"full", "names", "none"} <= set(printed.values())
    assert any(re.fullmatch(r"mixed \d+/9", v) for v in printed.values())
    doc = (ROOT / "docs" / "tuning.md").read_text(encoding="utf-8")
    paragraph = doc.split("## Listing outcomes are counted", 1)[1].split("\n## ", 1)[0]
    assert "grids and `sweep`'s table show the same\nshort form" in paragraph
    assert "the form alone (`full`, `names`,\n`summary`, `none`) otherwise" in paragraph
    assert not re.search(r"`(full|names|summary) \d+/\d+`", doc)


def test_counts_on_the_combined_catalog(combined) -> None:
    inspector, ladder = combined
    plan = inspector.planner.plan(parse_config({}), 200_000)
    counts = plan_counts(plan)
    assert counts == ladder.counts_at(plan.budget)
    named = [s for s in plan.servers if s.state in ("full", "names")]
    assert counts.servers_named == len(named) and counts.servers_total == len(ladder.servers)
    assert counts.tools_named == sum(s.deferred_count for s in named)
    assert counts.label == f"mixed · {len(named)} of {len(ladder.servers)} servers named ({counts.tools_named} tools)"
    assert counts.label == "mixed · 9 of 10 servers named (178 tools)"


def test_a_loss_of_named_servers_is_never_the_same(combined) -> None:
    _, ladder = combined
    today = outcomes(ladder, 5.0, 4000, LENGTHS)
    collapsed = outcomes(ladder, 0.6, 200, LENGTHS)
    assert {c.listing_form for c in today} == {c.listing_form for c in collapsed} == {"mixed"}
    assert lowered_lengths(today, collapsed) == LENGTHS
    assert outcome_change(today[0], collapsed[0]) == "lower: 9 → 1 of 10 servers named"
    assert outcome_change(collapsed[0], today[0]) == "better: 1 → 9 of 10 servers named"
    assert outcome_change(today[1], today[2]) == "same listing"


# --- goals and per-server requirements ------------------------------------------------------

def test_unreachable_names_keeps_nine_of_ten_servers(combined) -> None:
    """The names goal is out of reach at 32K (Cloudflare's names alone exceed it): the answer names
    as many servers as any setting can at 32K with the fewest listing tokens, and keeps the goal at
    200K and 1M, where it fits (it once listed the same 9 of 10 there, below what the defaults give)."""
    inspector, ladder = combined
    rec = recommend_for_contexts(ladder, parse_config({}), LENGTHS, "names")
    names_step = next(s for s in ladder.steps if s.form == "names")
    assert not rec.reached and str(f"{names_step.tokens:,}") in rec.reason
    # the most servers any budget up to 32,000 names
    best = max((ladder.counts_at(b) for b in {s.tokens for s in ladder.steps if s.tokens <= 32_000}),
               key=lambda c: (c.servers_named, c.tools_named))
    short, *longer = rec.contexts
    assert (short.servers_named, short.tools_named) == (best.servers_named, best.tools_named)
    # fewest tokens: the smallest candidate that names that many
    smallest = min(s.tokens for s in ladder.steps
                   if (ladder.counts_of(s).servers_named, ladder.counts_of(s).tools_named)
                   == (best.servers_named, best.tools_named))
    # (its budget is threshold_pct's share, 23.2 % for 200K's goal: no listing between fits 32K)
    assert short.listing_tokens == smallest and (short.budget, short.listing_form) == (7_423, "mixed")
    # the goal where it fits, with the smallest budget that reaches it
    assert all((c.listing_form, c.listing_tokens, c.budget) == ("names", names_step.tokens, names_step.tokens)
               for c in longer)
    assert (rec.threshold_pct, rec.listing_max_tokens) == (23.2, names_step.tokens)
    assert (best.servers_named, best.servers_total, smallest) == (9, 10, 1491)
    assert rec.goal_kept_at == (200_000, 1_000_000) and rec.lower_goal == "names,32k=listed"
    # the full plans agree
    for c in rec.contexts:
        plan = inspector.planner.plan(rec.apply(parse_config({})), c.context_length)
        assert (plan.listing_tokens, plan_counts(plan).servers_named) == (c.listing_tokens, c.servers_named)
        assert {s.name for s in plan.servers if s.state == "summary"} == ({"cloudflare"} if c is short else set())
    assert [(u.name, u.state, u.tokens_needed) for u in rec.unnamed] == [("cloudflare", "summary", names_step.tokens)]
    assert rec.unnamed[0].reason == (f"cloudflare: naming it needs a budget of {names_step.tokens:,} tokens, more than the whole 32K "
                                     f"context (32,000 tokens); named at 200K and 1M; a goal of its own for 32K keeps the goal at 200K and 1M (32k=listed; on the command line --goal names,32k=listed); "
                                     "that goal takes threshold_pct 23.2%, listing_max_tokens 46,241: a listing of 1,491 tokens at 32K "
                                     "(4.7% of the context), 46,241 tokens at 200K (23.1% of the context) and 46,241 tokens at 1M "
                                     "(4.6% of the context)")


@pytest.mark.parametrize("contexts, goal", [([60, 32_000], "names"), ([45, 700], "names"), ([150, 40_000], "full"),
                                            ([700, 50, None], "full")])
def test_fallback_brute_force(small_ladder, contexts, goal) -> None:
    """Every threshold_pct on the 0.1 grid × caps 200..320: no setting gives any length more: the goal
    where some setting reaches it there, else more servers (then tools) named; and among the settings
    that give every length that much, none has fewer listing tokens anywhere. So the worst length
    names as many as any setting can, and a length where the goal fits is never left below it."""
    rec = recommend_for_contexts(small_ladder, parse_config({}), contexts, goal)
    assert not rec.reached
    want = FORM_RANK[GOAL_FORMS[goal]]

    counts_at: dict[int, tuple[tuple[int, int, int], int]] = {}  # per budget, (score, listing tokens)

    def outcome(pct: float, cap: int):
        out = []
        for c in contexts:
            budget = listing_budget(c, pct, cap)[0]
            if budget not in counts_at:
                counts = small_ladder.counts_at(budget)
                meets = int(small_ladder.tier_at(budget) > 0 and FORM_RANK[small_ladder.form_at(budget)] <= want)
                # every listing that meets the goal scores the same: the goal asks no more
                score = (1, 0, 0) if meets else (0, counts.servers_named, counts.tools_named)
                counts_at[budget] = (score, counts.listing_tokens)
            out.append(counts_at[budget])
        return out

    grid = {(k / 10, cap): outcome(k / 10, cap) for k in range(1001) for cap in range(200, 321)}
    top = [max(value[i][0] for value in grid.values()) for i in range(len(contexts))]
    mine = outcome(rec.threshold_pct, rec.listing_max_tokens)
    assert [m[0] for m in mine] == top
    for key, value in grid.items():
        if [v[0] for v in value] == top:
            assert all(m[1] <= v[1] for m, v in zip(mine, value)), key


def test_except_and_keep(combined) -> None:
    _, ladder = combined
    config = parse_config({})
    rec = recommend_for_contexts(ladder, config, LENGTHS, "names", except_servers=["cloudflare"])
    assert (rec.reached, rec.reached_goal, rec.threshold_pct, rec.listing_max_tokens) == (True, "names", 4.7, 1491)
    assert rec.unnamed[0].reason == ("cloudflare: may collapse (an exception to the goal); naming it needs a budget of "
                                     "46,241 tokens, more than the whole 32K context (32,000 tokens)")
    # at 1M alone Cloudflare could be named; excepted, it collapses by choice and the listing is small
    rec = recommend_for_contexts(ladder, config, [1_000_000], "names", except_servers=["cloudflare"])
    assert (rec.reached, rec.listing_max_tokens) == (True, 1491)
    assert rec.unnamed[0].reason == ("cloudflare: may collapse (an exception to the goal); naming it needs "
                                     "a budget of 46,241 tokens")
    assert recommend_for_contexts(ladder, config, [1_000_000], "names").listing_max_tokens == 46_241
    # "listed" alone collapses everything it can; keeping github keeps it (and every server that
    # collapses after it) at names
    plain = recommend_for_contexts(ladder, config, LENGTHS, "listed")
    kept = recommend_for_contexts(ladder, config, LENGTHS, "listed", keep_servers=["github"])
    assert plain.worst.servers_named < kept.worst.servers_named
    for c in kept.contexts:
        assert ladder.states_of(ladder.step_at(c.budget))["github"] == "names"
    # one token less: github collapses at the shortest length
    assert ladder.states_of(ladder.step_at(kept.listing_max_tokens - 1))["github"] == "summary"
    # keeping the server that cannot be named: not reached, still the most servers named
    rec = recommend_for_contexts(ladder, config, LENGTHS, "any", keep_servers=["cloudflare"])
    assert not rec.reached and rec.worst.servers_named == 9
    with pytest.raises(ValueError, match="both"):
        recommend_for_contexts(ladder, config, LENGTHS, "names", except_servers=["x"], keep_servers=["x"])


@pytest.mark.parametrize("headroom", [10, 25.5])
def test_headroom(combined, headroom) -> None:
    _, ladder = combined
    rec = recommend_for_contexts(ladder, parse_config({}), LENGTHS, "names", except_servers=["cloudflare"],
                                 headroom_pct=headroom)
    assert rec.reached
    for c in rec.contexts:
        assert c.budget >= c.listing_tokens * (1 + headroom / 100)
        assert c.servers_named == 9
    # tight: one token less leaves less than the headroom (or loses a server)
    less = ladder.counts_at(rec.listing_max_tokens - 1)
    assert less.servers_named < 9 or rec.listing_max_tokens - 1 < less.listing_tokens * (1 + headroom / 100)
    assert rec.growth_tokens == rec.listing_max_tokens - rec.contexts[0].listing_tokens > 0
    assert f"absorbs {rec.growth_tokens:,} tokens" in rec.growth_words


# --- the console script -------------------------------------------------------------------------

def _recommend(*args: str):
    return run_cli("recommend", str(TEAM), str(CLOUDFLARE), "--context-lengths", "32k,200k,1m", *args)


def test_cli_names_unreachable_json() -> None:
    result = _recommend("--goal", "names", "--json")
    assert result.returncode == 1, result.stderr
    out = json.loads(result.stdout)
    # the goal kept at 200K and 1M, where Cloudflare's names fit; 32K names what it can hold
    assert (out["threshold_pct"], out["listing_max_tokens"], out["reached"]) == (23.2, 46_241, False)
    assert [(c["servers_named"], c["servers_total"], c["listing_form"]) for c in out["contexts"]] \
        == [(9, 10, "mixed")] + [(10, 10, "names")] * 2
    assert [u["name"] for u in out["unnamed"]] == ["cloudflare"]
    result = _recommend("--goal", "names")
    assert "best reachable setting (9 of 10 servers named at 32K, the goal kept at 200K and 1M, where it fits, and" in result.stdout
    assert "not named: cloudflare: naming it needs a budget of 46,241 tokens, more than the whole 32K context" in result.stdout
    assert "same form" not in result.stdout


def test_cli_except_keep_headroom() -> None:
    result = _recommend("--goal", "names", "--except", "cloudflare", "--headroom", "10", "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert (out["except"], out["headroom_pct"]) == (["cloudflare"], 10.0)
    assert all(c["budget"] >= 1.1 * c["listing_tokens"] and c["servers_named"] == 9 for c in out["contexts"])
    assert out["growth_tokens"] == out["listing_max_tokens"] - out["contexts"][0]["listing_tokens"]
    result = _recommend("--goal", "names", "--keep", "cloudflare")
    assert result.returncode == 1
    for bad, message in [(["--keep", "nope"], "--keep: no server named 'nope' in the catalog"),
                         (["--except", "github", "--keep", "github"], "both --except and --keep"),
                         (["--headroom", "lots"], "expected a percentage"),
                         (["--json", "--yaml"], "choose one")]:
        result = _recommend("--goal", "names", *bad)
        assert result.returncode == 2, bad
        assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr


# --- the exported block ------------------------------------------------------------------------

def test_yaml_block_with_provenance() -> None:
    result = _recommend("--goal", "names", "--except", "cloudflare", "--headroom", "10", "--yaml")
    assert result.returncode == 0, result.stderr
    data = yaml.safe_load(result.stdout)
    block = data["tools"]["tool_search"]
    as_json = json.loads(_recommend("--goal", "names", "--except", "cloudflare", "--headroom", "10", "--json").stdout)
    assert block == {"threshold_pct": as_json["threshold_pct"], "listing_max_tokens": as_json["listing_max_tokens"]}
    comments = [line for line in result.stdout.splitlines() if line.startswith("#")]
    fingerprint = catalog_key(inspector_of([TEAM, CLOUDFLARE]).catalog)
    assert comments[0] == f"# toolsearch {__version__} recommendation"
    assert comments[1] == f"# catalog: Team workspace + Cloudflare flat API (fingerprint {fingerprint})"
    assert comments[2].startswith("# context lengths: 32K, 200K, 1M")
    assert comments[3] == "# goal: every server at names or better, except cloudflare (may collapse)"
    assert comments[4].startswith("# headroom: 10% · absorbs ")
    assert comments[5] == "# reached at every listed context length"
    assert comments[6:9] == [f"# at {n}: mixed · 9 of 10 servers named (178 tools); listing {c['listing_tokens']:,} "
                             f"of {c['budget']:,} budget tokens" for n, c in zip(["32K", "200K", "1M"], as_json["contexts"])]
    assert comments[9:] == [f"# not named: {as_json['unnamed'][0]['reason']}",
                            f"# gate: toolsearch check {shlex.quote(str(TEAM))} {shlex.quote(str(CLOUDFLARE))} "
                            "--config config.yaml --strict --context-lengths 32k,200k,1m --goal names --except cloudflare",
                            "# until this block is merged into config.yaml, run the gate with --config set to this file"]


def test_gate_line_runs_as_written(tmp_path) -> None:
    """The # gate: line names the catalog files as they were given, so with the block saved as
    config.yaml it runs as it is, from the same folder, and passes."""
    folder = tmp_path / "my catalogs"
    folder.mkdir()
    (folder / "team.yaml").write_bytes(TEAM.read_bytes())
    made = run_cli("recommend", "team.yaml", "--context-lengths", "32k,200k", "--goal", "listed", "--yaml", cwd=folder)
    assert made.returncode == 0, made.stderr
    gate = next(line for line in made.stdout.splitlines() if line.startswith("# gate: "))
    assert gate.startswith("# gate: toolsearch check team.yaml --config config.yaml --strict ")
    (folder / "config.yaml").write_text(made.stdout, encoding="utf-8")
    argv = shlex.split(gate.removeprefix("# gate: "))
    checked = run_cli(*argv[1:], cwd=folder)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # the app, which has no file names (a sample or an upload), keeps the placeholder
    rec = recommend_for_contexts(listing_ladder(inspector_of([TEAM]).planner, parse_config({}), "chars4"),
                                 parse_config({}), [32_000], "listed")
    assert check_command(rec).startswith("toolsearch check CATALOG --config config.yaml ")
    assert check_command(rec, catalogs=["a b.yaml"]).startswith("toolsearch check 'a b.yaml' --config ")


def test_yaml_block_never_empty_and_keeps_set_keys(tmp_path) -> None:
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": {
        "enabled": "on", "listing": "on", "threshold_pct": 3, "defer": ["todo_list"]}}})
    catalog = write_yaml(tmp_path / "c.yaml", {"name": "evil\n# injected\ntools: {}", "servers": [
        {"name": "big", "tools": [{"name": n, "description": d} for n, d in BIG]}]})
    result = run_cli("recommend", catalog, "--config", config, "--context-lengths", "128k", "--goal", "full", "--yaml")
    assert result.returncode == 0, result.stderr
    data = yaml.safe_load(result.stdout)
    assert list(data["tools"]["tool_search"]) == ["enabled", "threshold_pct", "listing", "listing_max_tokens", "defer"]
    assert data["tools"]["tool_search"]["defer"] == ["todo_list"]
    assert "# catalog: evil⟨U+000A⟩# injected⟨U+000A⟩tools: {} (fingerprint" in result.stdout
    # the library function gives the same text
    inspector = Inspector.from_files([catalog])
    cfg = parse_config({"enabled": "on", "listing": "on", "threshold_pct": 3, "defer": ["todo_list"]})
    ladder = listing_ladder(inspector.planner, cfg)
    rec = recommend_for_contexts(ladder, cfg, [128_000], "full")
    assert export_block(rec, cfg, catalog_name=inspector.catalog.name, fingerprint=catalog_key(inspector.catalog),
                        version=__version__, catalogs=[str(catalog)], config_file=str(config),
                        lowered=lowered_changes(ladder, cfg, rec)) == result.stdout
    assert f"--config {config} --strict" in result.stdout  # the gate reads the config given
    # the defaults: still both keys
    result = run_cli("recommend", catalog, "--context-lengths", "128k", "--goal", "any", "--yaml")
    assert set(yaml.safe_load(result.stdout)["tools"]["tool_search"]) == {"threshold_pct", "listing_max_tokens"}


# --- sessions as evidence (stores written by Hermes) -------------------------------------------

GRAFANA = "mcp__grafana__get_current_oncall_users"
CF = "mcp__cloudflare__accounts_workers_scripts_list"
SESSIONS = {"sessions": [
    {"id": "oncall", "model": "openai/gpt-5-mini", "messages": [
        {"role": "user", "content": "Who is on call?"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("a1", "tool_search", {"queries": ["on-call"]})},
        {"role": "tool", "tool_call_id": "a1", "tool_name": "tool_search", "content": search_response("on-call", [GRAFANA])},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("a2", "tool_call", {"name": GRAFANA, "arguments": {}})},
        {"role": "tool", "tool_call_id": "a2", "tool_name": "tool_call", "content": "{\"users\": []}"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("a3", "tool_call", {"name": GRAFANA, "arguments": {}})},
        {"role": "tool", "tool_call_id": "a3", "tool_name": "tool_call", "content": "{\"users\": []}"}]},
    {"id": "workers", "model": "anthropic/claude-sonnet-4.5", "messages": [
        {"role": "user", "content": "List my workers"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("b1", "tool_search", {"queries": ["workers"]})},
        {"role": "tool", "tool_call_id": "b1", "tool_name": "tool_search", "content": search_response("workers", [])},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("b2", "tool_search", {"queries": ["scripts"]})},
        {"role": "tool", "tool_call_id": "b2", "tool_name": "tool_search", "content": search_response("scripts", [CF])},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("b3", "tool_call", {"name": CF, "arguments": {}})},
        {"role": "tool", "tool_call_id": "b3", "tool_name": "tool_call", "content": "{\"ok\": true}"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("b4", "tool_search", {"queries": ["on-call"]})},
        {"role": "tool", "tool_call_id": "b4", "tool_name": "tool_search", "content": search_response("on-call", [GRAFANA])},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("b5", "tool_call", {"name": GRAFANA, "arguments": {}})},
        {"role": "tool", "tool_call_id": "b5", "tool_name": "tool_call", "content": "{\"users\": []}"},
        {"role": "assistant", "content": "", "tool_calls": tool_calls("b6", "tool_call", {"name": "mcp__gone__x", "arguments": {}})},
        {"role": "tool", "tool_call_id": "b6", "tool_name": "tool_call", "content": "{\"error\": \"unknown\"}"}]},
]}


def test_recommend_with_hermes_sessions(tmp_path) -> None:
    db = write_store(tmp_path, SESSIONS)
    # names except Cloudflare: grafana is named, the Cloudflare tool is not. Saved: the one search
    # before each grafana call (one per session); the two before the Cloudflare call are not.
    result = _recommend("--goal", "names", "--except", "cloudflare", "--sessions", str(db), "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(c["called_listed"], c["called_total"], c["searches_saved"]) for c in out["contexts"]] == [(1, 2, 2)] * 3
    drift = out["sessions"].pop("catalog_drift")
    assert out["sessions"].pop("called_not_named") == [
        {"context_length": c, "tools": ["mcp__cloudflare__accounts_workers_scripts_list"]}
        for c in (32_000, 200_000, 1_000_000)]
    assert out["sessions"].pop("shorter_lengths") == []  # no session recorded a length below 32K
    assert out["sessions"] == {"read": 2, "called_not_deferred": ["mcp__gone__x"]}
    assert "mcp__gone__x" in result.stderr
    assert set(drift) >= {"drifted", "missing_tools", "missing_servers", "extra_servers"}
    # "listed" collapses grafana too: nothing called is named any more
    out = json.loads(_recommend("--goal", "listed", "--sessions", str(db), "--json").stdout)
    assert [(c["called_listed"], c["called_total"], c["searches_saved"]) for c in out["contexts"]] == [(0, 2, 0)] * 3
    text = _recommend("--goal", "names", "--except", "cloudflare", "--sessions", str(db)).stdout
    assert "called_listed" in text and "1/2" in text and "2 sessions read" in text
    # without --sessions the keys are absent
    assert "called_listed" not in json.loads(_recommend("--goal", "any", "--json").stdout)["contexts"][0]


def test_recommend_and_sessions_name_the_uncounted_tools_alike(tmp_path) -> None:
    """The called tools the counts leave out are one list under one name in both JSON outputs."""
    db = write_store(tmp_path, SESSIONS)
    rec = json.loads(_recommend("--goal", "names", "--sessions", str(db), "--json").stdout)
    ses = run_cli("sessions", str(db), "--catalog", str(TEAM), str(CLOUDFLARE), "--variant", "reference", "--json")
    assert ses.returncode == 0, ses.stderr
    assert rec["sessions"]["called_not_deferred"] == json.loads(ses.stdout)["called_not_deferred"] == ["mcp__gone__x"]
    assert "called_not_in_catalog" not in rec["sessions"]


def test_recommend_sessions_warns_of_catalog_drift_as_sessions_does() -> None:
    """A session recorded before Slack renamed the tool searched mcp__slack__slack_send_message, which
    team-workspace lacks: recommend --sessions says so with the drift check `toolsearch sessions`
    uses. The shipped samples were recorded on team-workspace: no warning for them."""
    from toolsearch.analysis.sessions import catalog_drift, load_sessions

    shipped = run_cli("recommend", TEAM, "--context-lengths", "32k", "--goal", "names", "--sessions",
                      ROOT / "sample_sessions" / "state.db")
    assert shipped.returncode == 0 and "catalog drift" not in shipped.stderr, shipped.stderr
    store = ROOT / "tests" / "data" / "renamed-tool-sessions.json"
    base = ("recommend", TEAM, "--context-lengths", "32k", "--goal", "names", "--sessions", store)
    result = run_cli(*base)
    assert result.returncode == 0, result.stderr
    assert ("toolsearch: warning: catalog drift: 1 tool the sessions used is not in Team workspace "
            "(mcp__slack__slack_send_message)") in result.stderr
    assert "called_listed and searches_saved count this catalog's listing" in result.stderr
    drift = json.loads(run_cli(*base, "--json").stdout)["sessions"]["catalog_drift"]
    assert drift == catalog_drift(load_sessions([store]).sessions, Inspector(load_source(TEAM))).to_dict()
    assert drift["missing_tools"] == ["mcp__slack__slack_send_message"]


def test_recommend_sessions_errors_are_one_line(tmp_path) -> None:
    for source, message in [(tmp_path / "missing.db", "no such session file"),
                            (TEAM, "not a recognised session format")]:
        result = _recommend("--goal", "names", "--sessions", str(source))
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr, result.stderr


def test_headroom_holds_where_the_cap_floor_lets_a_larger_listing_fit(small_ladder) -> None:
    """listed needs 41 tokens (mixed); 50 % headroom asks for 62. At 32K, 0.2 % gives 64; at 60K it
    would give 120, where names (104) fits with only 16 tokens to spare, so threshold_pct goes up
    to 0.3 %: 96 at 32K (mixed, 41) and 180 at 60K (names, 104), both 50 % above their listing."""
    rec = recommend_for_contexts(small_ladder, parse_config({}), [32_000, 60_000], "listed", headroom_pct=50)
    assert rec.reached
    for c in rec.contexts:
        assert c.budget >= c.listing_tokens * 1.5, c
    assert (rec.threshold_pct, rec.listing_max_tokens) == (0.3, 200)
    assert [(c.budget, c.listing_form, c.listing_tokens) for c in rec.contexts] == [(96, "mixed", 41), (180, "names", 104)]
    # 0.1 % less breaks the headroom at 60K
    less = outcomes(small_ladder, 0.2, 200, [32_000, 60_000])
    assert less[1].budget < less[1].listing_tokens * 1.5


def test_unnamed_reason_says_the_need_includes_headroom(combined) -> None:
    _, ladder = combined
    config = parse_config({})
    tight = recommend_for_contexts(ladder, config, LENGTHS, "names")
    roomy = recommend_for_contexts(ladder, config, LENGTHS, "names", headroom_pct=10)
    need = tight.unnamed[0].tokens_needed
    assert roomy.unnamed[0].tokens_needed == -(-need * 11 // 10)  # the listing's size plus 10%, rounded up
    assert roomy.unnamed[0].reason == (f"cloudflare: naming it needs a budget of {roomy.unnamed[0].tokens_needed:,} tokens (with 10% "
                                       "headroom), more than the whole 32K context (32,000 tokens); named at 200K and 1M; a goal of its own for 32K keeps the goal at 200K and 1M (32k=listed; on the command line --goal names,32k=listed); "
                                       + suggestion_cost_words(recommend_for_contexts(ladder, config, LENGTHS, "names", headroom_pct=10,
                                                                                      length_goals={32_000: "listed"})))
    assert "headroom" not in tight.unnamed[0].reason

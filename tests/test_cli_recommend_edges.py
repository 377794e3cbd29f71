"""``recommend`` (and the commands sharing its list options) on odd but legal input, as a new user
types it: repeated context lengths, a catalog whose listing is only a summary line, a context so
short that nothing can be listed. Each test runs the console script in a subprocess."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml

from conftest import run_cli
from toolsearch.engine.profile import DEFAULT_PROFILE_PATH

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"


def _json(result) -> dict | list:
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)


def test_repeated_context_lengths_are_answered_once_like_the_app() -> None:
    data = _json(run_cli("recommend", TEAM, "--context-lengths", "32k,32000,200k,32k", "--goal", "names", "--json"))
    assert [c["context_length"] for c in data["contexts"]] == [32_000, 200_000]
    rows = _json(run_cli("sweep", TEAM, "--context-lengths", "200k,200k", "--threshold-pcts", "5", "--json"))
    assert [r["context_length"] for r in rows] == [200_000]
    check = run_cli("check", TEAM, "--context-lengths", "32k,32k", "--goal", "names")
    assert check.returncode == 0, check.stderr
    assert "32K, 32K" not in check.stdout
    assert sum(line.startswith("32K ") for line in check.stdout.splitlines()) == 1, check.stdout


def test_tables_say_summary_for_a_listing_of_summary_lines_as_plan_does() -> None:
    # Cloudflare's 3,300 names do not fit in 32K: the listing is its summary line (JSON value "groups").
    plan = run_cli("plan", CLOUDFLARE, "--context-length", "32k")
    assert "listing form summary" in plan.stdout, plan.stdout
    for args in (("recommend", CLOUDFLARE, "--context-lengths", "32k", "--goal", "names"),
                 ("sweep", CLOUDFLARE, "--context-lengths", "32k", "--threshold-pcts", "1")):
        result = run_cli(*args)
        assert result.returncode in (0, 1) and "Traceback" not in result.stderr, result.stderr
        row = next(line for line in result.stdout.splitlines() if line.startswith("32K "))
        assert " summary " in f"{row} " and "groups" not in row, row
    data = _json(run_cli("recommend", CLOUDFLARE, "--context-lengths", "32k", "--goal", "names", "--json"))
    assert data["contexts"][0]["listing_form"] == "groups"  # the JSON keeps the form's value
    csv_out = run_cli("sweep", CLOUDFLARE, "--context-lengths", "32k", "--threshold-pcts", "1", "--csv").stdout
    assert ",groups," in csv_out  # so does the CSV


def test_growth_is_not_counted_as_zero_tools() -> None:
    # Only Cloudflare's summary line is listed at 32K: no tools are named, so no "about 0 tools".
    result = run_cli("recommend", CLOUDFLARE, "--context-lengths", "32k", "--goal", "names")
    assert result.returncode == 1, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("headroom:"))
    assert "absorbs" in line and "0 tools" not in line and "about" not in line, line
    block = run_cli("recommend", CLOUDFLARE, "--context-lengths", "32k", "--goal", "names", "--yaml").stdout
    assert "0 tools" not in block, block


def test_nothing_listable_at_the_shortest_length_is_not_called_the_fewest_tokens(tmp_path) -> None:
    # 2K of context fits the bridge tools but not the summary lines of 250 servers, so no listing: the
    # answer takes the largest settings (so 32K gets its best listing), which must not be described as
    # "the fewest listing tokens". (100 tokens, which no request fits, is left out of the answer instead.)
    many = tmp_path / "many.yaml"
    many.write_text(yaml.safe_dump({"servers": [
        {"name": f"s{s:03d}", "tools": [{"name": f"t{i}", "description": "Does a thing.", "inputSchema": {"type": "object"}}
                                       for i in range(2)]} for s in range(250)]}), encoding="utf-8")
    result = run_cli("recommend", many, "--context-lengths", "2k,32k", "--goal", "any")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("best reachable setting"))
    assert "fewest listing tokens" not in line, line
    assert "nothing can be listed at the shortest length" in line
    assert line.endswith("threshold_pct 100%, listing_max_tokens 60,000"), line
    # Where a listing fits everywhere, the usual words stay.
    result = run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,1m", "--goal", "names")
    assert "the fewest listing tokens" in result.stdout


def test_report_subtitle_gives_the_form_with_its_counts(tmp_path) -> None:
    # The report's subtitle is read first in a review: "form mixed" alone hides 9 of 10 servers named.
    out = tmp_path / "report.html"
    result = run_cli("report", TEAM, CLOUDFLARE, "--context-length", "32k", "--no-lint", "--no-strategies",
                     "-o", out)
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    subtitle = page.split('<p class="sub">', 1)[1].split("</p>", 1)[0]
    assert "form mixed · 9 of 10 servers named (178 tools)" in subtitle, subtitle


def test_check_gates_on_the_same_per_server_requirements_recommend_took(tmp_path) -> None:
    """The tuning workflow: recommend with --except, save the block, gate later changes with check.
    check must accept the same --except / --keep, or the gate fails on the setting it was told to ship."""
    config = tmp_path / "config.yaml"
    block = run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names",
                    "--except", "cloudflare", "--headroom", "10", "--yaml")
    assert block.returncode == 0, block.stderr
    config.write_text(block.stdout, encoding="utf-8")
    base = ("check", TEAM, CLOUDFLARE, "--config", config, "--context-lengths", "32k,200k,1m", "--goal", "names")
    passed = run_cli(*base, "--except", "cloudflare")
    assert passed.returncode == 0, (passed.stdout, passed.stderr)
    assert passed.stdout.startswith("toolsearch check passed: every server at names or better, except cloudflare")
    plain = run_cli(*base)  # without the exception the goal is out of reach at 32K
    assert plain.returncode == 1
    data = _json(run_cli(*base, "--keep", "cloudflare", "--format", "json"))
    assert data["passed"] is False and data["keep"] == ["cloudflare"]
    assert all(any(f.startswith("cloudflare must stay named") for f in c["failures"]) for c in data["contexts"])
    # a name that is not a server of the catalog: one line, exit 2
    bad = run_cli(*base, "--except", "nosuch")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
    assert "--except: no server named 'nosuch'" in bad.stderr
    # at 8K the exception does not cover the other servers that collapse: named in the failure
    short = run_cli("check", TEAM, CLOUDFLARE, "--context-lengths", "8k", "--goal", "names", "--except", "cloudflare")
    assert short.returncode == 1
    assert "collapsed and not excepted: github" in short.stdout


def test_check_table_says_summary_for_a_listing_of_summary_lines() -> None:
    for fmt in ("text", "markdown"):
        result = run_cli("check", CLOUDFLARE, "--context-lengths", "32k", "--goal", "any", "--format", fmt)
        assert result.returncode == 0, result.stderr
        row = next(line for line in result.stdout.splitlines() if "32K" in line and "holds" in line)
        assert "summary" in row and "groups" not in row, row
    data = _json(run_cli("check", CLOUDFLARE, "--context-lengths", "32k", "--goal", "any", "--format", "json"))
    assert data["contexts"][0]["listing_form"] == "groups"  # the JSON keeps the form's value


def test_check_holds_settings_to_the_headroom_recommend_chose(tmp_path) -> None:
    """recommend --headroom H gives a setting; check --headroom H passes it, a larger headroom fails
    naming the budget it needs (the same rule), and the suggestion check gives then passes."""
    config = tmp_path / "config.yaml"
    block = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10",
                    "--yaml")
    assert block.returncode == 0, block.stderr
    config.write_text(block.stdout, encoding="utf-8")
    base = ("check", TEAM, "--config", config, "--context-lengths", "32k,200k,1m", "--goal", "names")
    same = run_cli(*base, "--headroom", "10%")
    assert same.returncode == 0, same.stdout
    assert same.stdout.startswith("toolsearch check passed: every server at names or better; 10% headroom")
    more = _json(run_cli(*base, "--headroom", "20", "--format", "json"))
    assert more["passed"] is False and more["headroom_pct"] == 20
    at32 = more["contexts"][0]
    needed = -(-at32["listing_tokens"] * 120 // 100)  # ceil(listing × 1.2)
    assert at32["budget"] < needed
    assert at32["failures"] == [f"the budget of {at32['budget']:,} tokens leaves {at32['headroom_tokens']:,} tokens "
                                f"above the {at32['listing_tokens']:,}-token listing; 20% headroom needs a budget of "
                                f"at least {needed:,}"]
    fix = more["suggestion"]
    assert fix["reached"] and fix["headroom_pct"] == 20
    fixed = run_cli("check", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "20",
                    "--threshold-pct", str(fix["threshold_pct"]), "--listing-max-tokens", str(fix["listing_max_tokens"]))
    assert fixed.returncode == 0, fixed.stdout
    # without --headroom the check is as before: the tight setting passes
    assert run_cli(*base).returncode == 0
    bad = run_cli(*base, "--headroom", "lots")
    assert bad.returncode == 2 and "expected a percentage" in bad.stderr and "Traceback" not in bad.stderr
    for fine in ("1e-320", "12.345"):  # finer than a hundredth of a percent: refused, not printed as 9.99989e-321%
        refused = run_cli(*base, "--headroom", fine)
        assert refused.returncode == 2 and f"at most two decimals, such as 12.5, got '{fine}'" in refused.stderr
    assert run_cli(*base, "--headroom", "0.05").stdout.startswith(
        "toolsearch check passed: every server at names or better; 0.05% headroom")


def test_a_headroom_failure_above_the_goal_says_a_smaller_budget_holds_too() -> None:
    """Default settings, goal names with 10% headroom: at 200K the listing is full with 344 tokens of
    room, and check names the 4,022 tokens full needs; the settings it suggests are smaller (1,621
    tokens, names), so the failure says a smaller budget holds too. At 32K the listing is names, the
    goal's own form: only the budget it needs."""
    done = _json(run_cli("check", TEAM, "--context-lengths", "32k,200k", "--goal", "names", "--headroom", "10",
                         "--format", "json"))
    at32, at200 = done["contexts"]
    assert at32["failures"] == ["the budget of 1,600 tokens leaves 127 tokens above the 1,473-token listing; "
                                "10% headroom needs a budget of at least 1,621"]
    assert at200["failures"] == ["the budget of 4,000 tokens leaves 344 tokens above the 3,656-token listing; "
                                 "10% headroom needs a budget of at least 4,022, or a smaller one with 10% above a "
                                 "smaller listing the goal still accepts (the goal needs names; this listing is full)"]
    assert done["suggestion"]["listing_max_tokens"] == 1621 < 4022
    # a per-length goal of full at 200K: full is that length's goal, so nothing smaller holds there
    full = _json(run_cli("check", TEAM, "--context-lengths", "32k,200k", "--goal", "names,200k=full",
                         "--headroom", "10", "--format", "json"))
    assert full["contexts"][1]["failures"][-1].endswith("needs a budget of at least 4,022")


def test_a_headroom_failure_says_a_smaller_budget_holds_only_when_one_does() -> None:
    """Goal any at 1M: with 10% headroom a summary listing of 159 tokens can keep its room, and the
    suggestion is that smaller budget; with 200% no smaller listing can (each budget with that room
    is one at which a larger listing is chosen), the suggestion keeps the full listing, and the
    failure names only the budget it needs."""
    base = ("check", TEAM, "--context-lengths", "1m", "--goal", "any", "--format", "json")
    some = _json(run_cli(*base, "--headroom", "10"))
    assert some["contexts"][0]["failures"][-1].endswith(
        "or a smaller one with 10% above a smaller listing the goal still accepts (the goal needs summary; "
        "this listing is full)")
    assert some["suggestion"]["listing_max_tokens"] < 4022
    none = _json(run_cli(*base, "--headroom", "200"))
    assert none["contexts"][0]["failures"] == ["the budget of 4,000 tokens leaves 344 tokens above the 3,656-token "
                                               "listing; 200% headroom needs a budget of at least 10,968"]
    assert none["suggestion"]["listing_max_tokens"] == 10_968  # the full listing, with its room


def test_headroom_failures_ignore_lengths_with_nothing_listed() -> None:
    from toolsearch.analysis.check import headroom_failures
    from toolsearch.analysis.recommend import ContextOutcome, budget_with_headroom

    assert budget_with_headroom(1473, 10) == 1621 and budget_with_headroom(1000, 0) == 1000
    assert budget_with_headroom(1000, 12.5) == 1125 and budget_with_headroom(1001, 12.5) == 1127
    tight = ContextOutcome(32_000, 1000, 1, "names", 1000)
    assert headroom_failures(tight, 0) == ()
    assert len(headroom_failures(tight, 5)) == 1
    assert headroom_failures(ContextOutcome(32_000, 1050, 1, "names", 1000), 5) == ()
    assert headroom_failures(ContextOutcome(32_000, 0, 2, "none", 0), 50) == ()  # nothing listed
    assert headroom_failures(ContextOutcome(2_000_000, 5000, 0, "full", 4000), 50) == ()  # tool search inactive


def test_recommend_says_where_it_lists_less_than_the_current_settings(tmp_path) -> None:
    """The cheapest setting for "names" gives names at 200K where the defaults give full lines: the
    CLI says so (as the Tuning page does), in text and in JSON; with the current settings already
    the recommendation's, nothing is lower."""
    args = ("recommend", TEAM, "--context-lengths", "32k,200k", "--goal", "names")
    text = run_cli(*args)
    assert text.returncode == 0, text.stderr
    # no config: the settings compared with are the defaults, and the line says so
    assert ("lists less than the default settings (threshold_pct 5%, listing_max_tokens 4,000) at "
            "200K (lower form: full → names) · it is the cheapest setting that meets the goal") in text.stdout
    other = tmp_path / "other.yaml"
    other.write_text("tools:\n  tool_search: {threshold_pct: 10, listing_max_tokens: 5000}\n", encoding="utf-8")
    mine = run_cli(*args, "--config", other)
    assert ("lists less than the current settings (threshold_pct 10%, listing_max_tokens 5,000) at "
            "200K (lower form: full → names) · it is the cheapest setting that meets the goal") in mine.stdout, mine.stdout
    data = json.loads(run_cli(*args, "--json").stdout)
    assert data["current"] == {"threshold_pct": 5.0, "listing_max_tokens": 4000, "default_in_place_of_config": []}
    assert data["lower_than_current"] == [{"context_length": 200000, "change": "lower form: full → names",
                                           "no_longer_named": []}]
    config = tmp_path / "config.yaml"
    config.write_text(run_cli(*args, "--yaml").stdout, encoding="utf-8")
    same = json.loads(run_cli(*args, "--config", config, "--json").stdout)
    assert same["lower_than_current"] == []


def test_check_strict_stops_on_config_warnings(tmp_path) -> None:
    """--strict: a misspelt key (threshold_pc) or a catalog given as --config is exit 2 with the
    warning shown, instead of a pass on defaults nobody chose; a clean config still passes."""
    typo = tmp_path / "config.yaml"
    typo.write_text("tools:\n  tool_search:\n    threshold_pc: 10\n", encoding="utf-8")
    base = ("check", TEAM, "--context-lengths", "200k", "--goal", "any")
    loose = run_cli(*base, "--config", typo)
    assert loose.returncode == 0 and "threshold_pc: unknown key" in loose.stderr
    strict = run_cli(*base, "--config", typo, "--strict")
    assert strict.returncode == 2 and strict.stdout == ""
    assert "threshold_pc: unknown key" in strict.stderr
    assert "check --strict: the config has 1 warning (above)" in strict.stderr and "Traceback" not in strict.stderr
    # a flag out of range warns under the key it sets: the message names the flag, not only the config
    flag = run_cli(*base, "--config", typo, "--strict", "--listing-max-tokens", "100")
    assert (flag.returncode, flag.stdout) == (2, "")
    assert flag.stderr.splitlines()[-1] == ("toolsearch: error: check --strict: the config and --listing-max-tokens "
                                            "have 2 warnings (above); fix them, or drop --strict to check the "
                                            "settings as read")
    assert run_cli(*base, "--strict", "--threshold-pct", "150").stderr.splitlines()[-1] == (
        "toolsearch: error: check --strict: --threshold-pct has 1 warning (above); fix it, or drop --strict to check "
        "the settings as read")
    clean = tmp_path / "clean.yaml"
    clean.write_text("tools:\n  tool_search:\n    threshold_pct: 10\n", encoding="utf-8")
    assert run_cli(*base, "--config", clean, "--strict").returncode == 0


def test_check_strict_without_any_settings_refuses_to_gate_the_defaults(tmp_path) -> None:
    """A gate line copied without its --config passed with --strict on the defaults (threshold_pct 5%,
    listing_max_tokens 4,000), though --strict promises to check only settings someone wrote: it is
    exit 2 now, naming what is missing; a settings flag or a config still runs the check."""
    base = ("check", TEAM, "--context-lengths", "32k", "--goal", "names")
    bare = run_cli(*base, "--strict")
    assert (bare.returncode, bare.stdout) == (2, "")
    assert bare.stderr == ("toolsearch: error: check --strict: no --config and no --threshold-pct or "
                           "--listing-max-tokens, so it would check the defaults (threshold_pct 5%, listing_max_tokens "
                           "4,000); give the harness config with --config FILE, or drop --strict to check the "
                           "defaults\n")
    assert run_cli(*base).returncode == 0  # without --strict the defaults are checked, as before
    assert run_cli(*base, "--strict", "--threshold-pct", "5").returncode == 0
    assert run_cli(*base, "--strict", "--listing-max-tokens", "1600").returncode == 0
    config = tmp_path / "config.yaml"
    config.write_text("tools:\n  tool_search: {threshold_pct: 5}\n", encoding="utf-8")
    assert run_cli(*base, "--strict", "--config", config).returncode == 0


def test_a_server_left_out_where_it_would_fit_is_said_with_the_goal_that_names_it() -> None:
    """One goal for every length, out of reach at 32K: the best reachable setting keeps the goal at 200K
    and 1M, where Cloudflare's names fit (it once listed the same everywhere, leaving it out there too).
    The reason says where it is named, and the per-length goal that reaches the goal names it there."""
    data = _json(run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names", "--json"))
    assert [c["servers_named"] for c in data["contexts"]] == [9, 10, 10]
    assert [u["reason"] for u in data["unnamed"]] == [
        "cloudflare: naming it needs a budget of 46,241 tokens, more than the whole 32K context (32,000 tokens); named "
        "at 200K and 1M; a goal of its own for 32K keeps the goal at 200K and 1M "
        "(32k=listed; on the command line --goal names,32k=listed); that goal takes "
        "threshold_pct 23.2%, listing_max_tokens 46,241: a listing of 1,491 tokens at 32K (4.7% of the context), "
        "46,241 tokens at 200K (23.1% of the context) and 46,241 tokens at 1M (4.6% of the context)"]
    # the goal the reason suggests runs as written: the item alone ("32k=listed") is refused by
    # --goal, as the other lengths would have no goal
    suggested = data["unnamed"][0]["reason"].rsplit("--goal ", 1)[1].split(")", 1)[0]
    assert run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "32k=listed").returncode == 2
    named = _json(run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", suggested,
                          "--json"))
    assert named["reached"] is True and [c["servers_named"] for c in named["contexts"]] == [9, 10, 10]
    # and costs what the reason says it costs
    assert (named["threshold_pct"], named["listing_max_tokens"]) == (23.2, 46_241)
    assert [c["listing_tokens"] for c in named["contexts"]] == [1_491, 46_241, 46_241]


def test_each_length_gives_its_goals_need_apart_from_the_budget_the_settings_are_chosen_for() -> None:
    """Out of reach, ``contexts[i].budget_needed`` was the best reachable listing's budget (1,491 tokens
    at 32K for the goal names), under a key the page documented as "the smallest budget that goal needs
    there", which is 46,241 tokens: one name for two figures. Each length now also gives ``goal_budget``,
    that length's goal's own need (as the top level does), equal to ``budget_needed`` where it is
    reached; with a goal per length each length's own."""
    data = _json(run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names", "--json"))
    assert (data["reached"], data["budget_needed"], data["goal_budget"]) == (False, 46_241, 46_241)
    # the goal is kept at 200K and 1M, where it fits
    assert [(c["budget_needed"], c["goal_budget"]) for c in data["contexts"]] == [(1_491, 46_241)] + [(46_241, 46_241)] * 2
    per_length = _json(run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m",
                               "--goal", "names,1m=full", "--json"))
    assert per_length["reached"] is False
    assert [(c["goal"], c["budget_needed"], c["goal_budget"]) for c in per_length["contexts"]] == [
        ("names", 1_491, 46_241), ("names", 46_241, 46_241), ("full", 46_241, 84_887)]
    assert per_length["goal_budget"] == 84_887  # the full listing, above the largest listing_max_tokens
    reached = _json(run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names,1m=full",
                            "--json"))
    assert [(c["budget_needed"], c["goal_budget"]) for c in reached["contexts"]] == [
        (1_473, 1_473), (1_473, 1_473), (3_656, 3_656)]


def test_the_suggested_goal_lowers_every_length_too_short_to_name_the_server() -> None:
    """At 16K, 32K and 1M, Cloudflare's names fit at 1M only. The reason suggested a goal of its own for
    16K alone (``--goal names,16k=listed``), which keeps ``names`` at 32K, where naming Cloudflare is out
    of reach too: run as written it was not reached (exit 1) and let github, grafana and playwright
    collapse at 16K. The suggestion gives every length too short for it the lower goal, and that goal
    is reached, naming Cloudflare at 1M, at the cost the reason gives."""
    lengths = ("--context-lengths", "16k,32k,1m")
    data = _json(run_cli("recommend", TEAM, CLOUDFLARE, *lengths, "--goal", "names", "--json"))
    reason = data["unnamed"][0]["reason"]
    assert ("named at 1M; a goal of their own "
            "for 16K and 32K keeps the goal at 1M (16k=listed, 32k=listed; on the command line "
            "--goal names,16k=listed,32k=listed); that goal takes threshold_pct 4.7%, listing_max_tokens 46,241: "
            "a listing of 598 tokens at 16K (3.7% of the context), 1,491 tokens at 32K (4.7% of the context) and "
            "46,241 tokens at 1M (4.6% of the context)") in reason, reason
    suggested = reason.rsplit("--goal ", 1)[1].split(")", 1)[0]
    followed = run_cli("recommend", TEAM, CLOUDFLARE, *lengths, "--goal", suggested, "--json")
    assert followed.returncode == 0, followed.stdout
    named = _json(followed)
    assert named["reached"] is True and [c["servers_named"] for c in named["contexts"]] == [5, 9, 10]
    assert (named["threshold_pct"], named["listing_max_tokens"]) == (4.7, 46_241)
    assert [c["listing_tokens"] for c in named["contexts"]] == [598, 1_491, 46_241]
    # the reason names every length too short for it: "more than the whole 16K context; named at 1M"
    # left 32K, where it is not named either, without one
    assert reason.startswith("cloudflare: naming it needs a budget of 46,241 tokens, more than the whole context "
                             "at 16K and 32K (16,000 and 32,000 tokens); named at 1M; a goal of their own"), reason
    assert named["unnamed"][0]["reason"] == (
        "cloudflare: naming it needs a budget of 46,241 tokens, more than the whole context at 16K and 32K "
        "(16,000 and 32,000 tokens); named at 1M")


@pytest.mark.parametrize("args", [
    ("--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10"),
    ("--context-lengths", "12345,200k,unknown,1m", "--goal", "listed,1m=full", "--keep", "github",
     "--except", "playwright", "--headroom", "12.5", "--tokenizer", "o200k_base"),
    ("--context-lengths", "32k,1m", "--goal", "any"),
    # names as the catalog has them make a smaller listing: before, the gate line left
    # --tool-names out, and the gate failed on the very catalog the block was made for
    ("--context-lengths", "32k,200k", "--goal", "names", "--tool-names", "as-is"),
    ("--context-lengths", "32k", "--goal", "full", "--profile", str(DEFAULT_PROFILE_PATH)),
])
def test_the_exported_gate_line_is_a_check_that_passes_on_the_block(tmp_path, args) -> None:
    """recommend --yaml ends its comments with '# gate: toolsearch check CATALOG... ...' naming the
    catalog files given: with the block saved as the config, that command passes. It carries everything
    asked but the headroom (the room growth may use; see the next test but one). A goal out of
    reach gets no gate line (:func:`test_a_goal_out_of_reach_gets_no_gate_line`)."""
    block = run_cli("recommend", TEAM, *args, "--yaml")
    assert block.returncode == 0, block.stderr
    config = tmp_path / "config.yaml"
    config.write_text(block.stdout, encoding="utf-8")
    gate = [line for line in block.stdout.splitlines() if line.startswith("# gate: ")]
    assert len(gate) == 1, block.stdout
    words = shlex.split(gate[0].removeprefix("# gate: "))
    assert words[:6] == ["toolsearch", "check", str(TEAM), "--config", "config.yaml", "--strict"]
    done = run_cli(*words[1:], cwd=tmp_path)  # --strict: the block has no warning
    assert done.returncode == 0, done.stdout + done.stderr
    for option in ("--context-lengths", "--goal", "--keep", "--except", "--tokenizer", "--tool-names", "--profile"):
        asked = args[args.index(option) + 1] if option in args else None
        assert (words[words.index(option) + 1] if option in words else None) == asked, option
    assert ("--tokenizer" in words) == ("--tokenizer" in args) and "--headroom" not in words


def test_a_goal_out_of_reach_gets_no_gate_line() -> None:
    """The block of a goal no setting reaches says so and carries no gate line (the test above
    checks the gate line of the blocks that reach theirs)."""
    unreached = run_cli("recommend", TEAM, ROOT / "sample_catalogs" / "cloudflare-flat.yaml", "--context-lengths", "32k",
                        "--goal", "names", "--yaml")
    assert unreached.returncode == 1 and "# not reached" in unreached.stdout and "# gate:" not in unreached.stdout


def _with_more_tools(tmp_path, count: int) -> Path:
    """The team workspace with ``count`` more tools on its linear server (copies of its first)."""
    data = yaml.safe_load(TEAM.read_text(encoding="utf-8"))
    server = next(s for s in data["servers"] if s["name"] == "linear")
    server["tools"] += [{**server["tools"][0], "name": f"extra_tool_{i}"} for i in range(count)]
    path = tmp_path / f"plus{count}.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def test_the_gate_passes_while_the_headroom_absorbs_growth(tmp_path) -> None:
    """A block recommended with 10 % headroom says how many tools it absorbs before the listing
    changes; its gate line passes on a catalog grown by fewer tools than that, and fails once the
    growth changes the listing below the goal. ``check --headroom 10`` on the grown catalog fails
    at the first tool: it asks for the whole margin again (the gate line used to carry it, so the
    gate failed on the first tool added)."""
    block = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names", "--headroom", "10",
                    "--yaml")
    assert block.returncode == 0, block.stderr
    absorbs = re.search(r"# headroom: 10% · absorbs ([\d,]+) tokens of listing growth \(about (\d+) tools\)",
                        block.stdout)
    assert absorbs, block.stdout
    tools = int(absorbs.group(2))
    assert tools >= 3
    config = tmp_path / "config.yaml"
    config.write_text(block.stdout, encoding="utf-8")
    gate = shlex.split(next(line for line in block.stdout.splitlines() if line.startswith("# gate: "))
                       .removeprefix("# gate: "))
    grown = _with_more_tools(tmp_path, tools // 2)
    assert run_cli("check", grown, "--config", config, *gate[5:]).returncode == 0
    strict = run_cli("check", _with_more_tools(tmp_path, 1), "--config", config, *gate[5:], "--headroom", "10")
    assert strict.returncode == 1 and "10% headroom needs a budget of at least" in strict.stdout
    broken = run_cli("check", _with_more_tools(tmp_path, 3 * tools), "--config", config, *gate[5:])
    assert broken.returncode == 1, broken.stdout


def test_a_block_for_a_scope_has_no_gate_line_check_cannot_run(tmp_path) -> None:
    """check judges the whole catalog (it takes no --scope); the gate line of a block recommended for
    a scope was a check of the whole catalog, which failed on the block: now it says so instead."""
    block = run_cli("recommend", TEAM, "--scope", "bot=github,slack", "--context-lengths", "32k", "--goal", "full",
                    "--yaml")
    assert block.returncode == 0, block.stderr
    gate = [line for line in block.stdout.splitlines() if line.startswith("# gate:")]
    assert gate == ["# gate: none for scope bot: toolsearch check judges the whole catalog"]
    config = tmp_path / "config.yaml"
    config.write_text(block.stdout, encoding="utf-8")
    whole = run_cli("check", TEAM, "--config", config, "--strict", "--context-lengths", "32k", "--goal", "full")
    assert whole.returncode == 1  # the whole catalog's listing does not fit the scope's budget


def test_the_gate_line_names_a_server_with_an_invisible_character_so_bash_runs_it(tmp_path) -> None:
    """A server name with a bidi override or a zero-width space is shown as a marker (⟨U+202E⟩) in the
    comment lines; the gate line quotes it as $'...\\u202e...' so that bash passes the real name to check
    (inside '...' bash kept the six characters, and check said there is no such server)."""
    import shutil
    import subprocess

    name = "<b>ops</b> *x*\u202eevil\u200b'q\\z"
    catalog = tmp_path / "cat.yaml"
    catalog.write_text(json.dumps({"name": "c", "servers": [
        {"name": name, "tools": [{"name": f"t{i}", "description": "Does a thing. " * 20} for i in range(30)]},
        {"name": "plain", "tools": [{"name": "p", "description": "Plain."}]}]}), encoding="utf-8")
    block = run_cli("recommend", catalog, "--context-lengths", "2k,32k", "--goal", "names", "--except", name, "--yaml")
    assert block.returncode == 0, block.stderr
    config = tmp_path / "config.yaml"
    config.write_text(block.stdout, encoding="utf-8")
    gate = next(line for line in block.stdout.splitlines() if line.startswith("# gate: "))
    assert "--except $'<b>ops</b> *x*\\u202eevil\\u200b\\'q\\\\z'" in gate
    assert shutil.which("bash"), "bash is needed to read the gate line as a shell does"
    argv = subprocess.run(["bash", "-c", 'printf "%s\\0" ' + gate.removeprefix("# gate: ")], capture_output=True,
                          check=True).stdout.decode("utf-8").split("\0")[:-1]
    assert argv[argv.index("--except") + 1] == name
    done = run_cli("check", catalog, "--config", config, *argv[5:])
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_server_with_an_invisible_character_reads_the_same_on_every_comment_line(tmp_path) -> None:
    """The goal line showed ``be⟨U+202E⟩ta`` and the ``# not named:`` line ``be\\u202eta`` for the same
    server in one block: every comment line uses the markers the CLI and the app show; only the gate
    line, which bash runs, keeps its ``$'...\\u202e...'`` quoting."""
    name = "be\u202eta"
    catalog = tmp_path / "cat.yaml"
    catalog.write_text(json.dumps({"name": "Odd\u202e names", "servers": [
        {"name": name, "tools": [{"name": f"t{i}", "description": "Does a thing. " * 20} for i in range(30)]},
        {"name": "plain", "tools": [{"name": "p", "description": "Plain."}]}]}), encoding="utf-8")
    block = run_cli("recommend", catalog, "--context-lengths", "2k,32k", "--goal", "names", "--except", name, "--yaml")
    assert block.returncode == 0, block.stderr
    comments = [line for line in block.stdout.splitlines() if line.startswith("#")]
    assert "\u202e" not in block.stdout
    assert [line for line in comments if "\\u202e" in line] == [
        line for line in comments if line.startswith("# gate: ")]
    assert "# catalog: Odd⟨U+202E⟩ names (fingerprint " in block.stdout
    assert "# goal: every server at names or better, except be⟨U+202E⟩ta (may collapse)" in comments
    assert any(line.startswith("# not named: be⟨U+202E⟩ta: may collapse") for line in comments), comments


def test_the_gate_line_passes_a_server_name_starting_with_a_dash_as_one_argument(tmp_path) -> None:
    """A server named ``-x`` (or a profile path starting with ``-``) is written ``--except=-x`` in the
    gate line: ``--except -x`` made check stop with "argument --except: expected one argument" (exit 2)."""
    import shlex

    catalog = tmp_path / "cat.yaml"
    catalog.write_text(json.dumps({"name": "c", "servers": [
        {"name": "-x", "tools": [{"name": f"t{i}", "description": "Does a thing. " * 20} for i in range(30)]},
        {"name": "--keep", "tools": [{"name": "k", "description": "Kept."}]},
        {"name": "plain", "tools": [{"name": "p", "description": "Plain."}]}]}), encoding="utf-8")
    block = run_cli("recommend", catalog, "--context-lengths", "2k,32k", "--goal", "names", "--except=-x",
                    "--keep=--keep", "--yaml")
    assert block.returncode == 0, block.stderr
    config = tmp_path / "config.yaml"
    config.write_text(block.stdout, encoding="utf-8")
    gate = next(line for line in block.stdout.splitlines() if line.startswith("# gate: "))
    assert gate.endswith(" --goal names --except=-x --keep=--keep"), gate
    argv = shlex.split(gate.removeprefix("# gate: "))
    done = run_cli("check", catalog, "--config", config, *argv[5:])
    assert done.returncode == 0, done.stdout + done.stderr


def test_recommend_help_says_what_the_gate_line_checks() -> None:
    """recommend --help tells what README and docs/tuning.md tell: --yaml's block carries a # gate:
    line that checks the goal, and leaves --headroom out because growth spends it."""
    text = " ".join(run_cli("recommend", "--help").stdout.split())
    assert "a '# gate:' line: the toolsearch check command that fails a build when the goal breaks" in text
    assert "(without --headroom: growth spends the headroom)" in text
    assert "the room the catalog grows into before the listing changes" in text


def test_sessions_evidence_in_a_scope_names_called_tools_outside_it_as_such() -> None:
    """recommend --sessions in a session scope: tools the sessions called that the catalog has but
    the scope does not reach are named as outside the scope, not as tools 'this catalog does not defer'."""
    root = Path(__file__).resolve().parent.parent
    done = run_cli("recommend", TEAM, "--scope-file", root / "sample_catalogs" / "scopes" / "team-workspace.yaml",
                   "--scope", "support", "--context-lengths", "32k,1m", "--goal", "names",
                   "--sessions", root / "sample_sessions" / "state.db")
    assert done.returncode == 0, done.stderr
    assert ("toolsearch: warning: the sessions called 5 tools the session scope 'support' does not reach: "
            "mcp__github__create_issue, mcp__github__get_job_logs, mcp__grafana__get_current_oncall_users, "
            "mcp__grafana__get_dashboard_panel_queries, mcp__grafana__search_dashboards") in done.stderr.splitlines()
    assert "this catalog does not defer" not in done.stderr
    whole = run_cli("recommend", TEAM, "--context-lengths", "32k,1m", "--goal", "names",
                    "--sessions", root / "sample_sessions" / "state.db")
    assert "the session scope" not in whole.stderr


def test_recommend_writes_the_settings_as_its_config_block_does() -> None:
    """A whole-number threshold_pct (6 % for the issue tracker at 8K) reads the same above the
    table as in the block to paste (``threshold_pct: 6.0``), not ``6`` in one and ``6.0`` in the other."""
    args = ("recommend", ROOT / "sample_catalogs" / "issue-tracker.yaml", "--context-lengths", "8k", "--goal", "full")
    text = run_cli(*args)
    assert text.returncode == 0, text.stderr
    block = run_cli(*args, "--yaml").stdout
    assert json.loads(run_cli(*args, "--json").stdout)["threshold_pct"] == 6.0
    for key in ("threshold_pct", "listing_max_tokens"):
        summary = next(line for line in text.stdout.splitlines() if line.startswith(f"{key}: "))
        assert re.search(rf"^\s+{re.escape(summary)}$", block, re.M), (summary, block)
    assert "threshold_pct: 6.0" in text.stdout.splitlines()


@pytest.mark.parametrize("how", ["enabled-off", "empty-scope"])
def test_recommend_and_check_agree_when_tool_search_is_not_active(tmp_path, how) -> None:
    """Tier 0 at every length (tool search off, or a session scope with nothing deferrable): check
    passes, so recommend says the goal is reached, keeps the current settings and exits 0 (it used
    to exit 1 with 100 % / 60,000 tokens as the "best reachable" setting)."""
    args: list = [TEAM, "--context-lengths", "32k,200k", "--goal", "names"]
    if how == "enabled-off":
        config = tmp_path / "config.yaml"
        config.write_text("tools:\n  tool_search:\n    enabled: 'off'\n    listing_max_tokens: 3000\n",
                          encoding="utf-8")
        args += ["--config", config]
    else:
        scopes = tmp_path / "scopes.yaml"
        scopes.write_text("scopes:\n  nothing:\n    servers: [slack]\n    exclude: ['*']\n", encoding="utf-8")
        args += ["--scope-file", scopes]
    text = run_cli("recommend", *args)
    # enabled off: 32K fits no request (exit 1, as check fails there); the scope: every length fits
    assert text.returncode == (1 if how == "enabled-off" else 0), text.stderr
    lines = text.stdout.splitlines()
    if how == "enabled-off":  # every schema up front does not fit 32K, whatever the settings: left out
        assert lines[0] == "Reached at the context length 200K; not at 32K, which no request fits whatever the settings."
        assert lines[2].startswith("at 32K no setting fits: the tools array alone (") and lines[2].endswith(
            "this length is left out of the answer"), lines
        del lines[2]
    else:
        assert lines[0] == "Reached at every listed context length."
    assert lines[2:4] == ["threshold_pct: 5.0", f"listing_max_tokens: {3000 if how == 'enabled-off' else 4000}"]
    assert lines[4].startswith("tool search is not active (enabled: off, or nothing is deferrable): every tool is "
                               "sent with its full schema, so every goal holds"), lines
    data = json.loads(run_cli("recommend", *args, "--json").stdout)
    assert (data["reached"], data["budget_needed"], data["reason"]) == (True, 0, "")
    assert {c["outcome"] for c in data["contexts"]} == {"tool search not active · every schema sent"}
    if how == "enabled-off":  # the gate line it writes passes on the same catalog
        block = run_cli("recommend", *args, "--yaml").stdout
        gate = next(line for line in block.splitlines() if line.startswith("# gate: "))
        command = shlex.split(gate.removeprefix("# gate: toolsearch "))
        config_out = tmp_path / "recommended.yaml"
        config_out.write_text(block, encoding="utf-8")
        command = [str(TEAM) if a == "CATALOG" else str(config_out) if a == "config.yaml" else a for a in command]
        check = run_cli(*command)
        assert check.returncode == 0, (gate, check.stdout, check.stderr)


def test_exported_block_names_every_server_it_leaves_unnamed() -> None:
    # A goal per length names Cloudflare at 200K and 1M but lets it collapse at 32K: the block's
    # counts say "9 of 10" there, and the file a config review reads names the server and why.
    result = run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names,32k=listed",
                     "--yaml")
    assert result.returncode == 0, result.stderr
    comments = [line for line in result.stdout.splitlines() if line.startswith("# not named:")]
    assert comments == ["# not named: cloudflare: naming it needs a budget of 46,241 tokens, more than the whole 32K "
                        "context (32,000 tokens); named at 200K and 1M"], result.stdout
    # the same words as the text output, one line per server, also when many collapse
    text = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed")
    block = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed", "--yaml")
    said = [line for line in text.stdout.splitlines() if line.startswith("not named: ")]
    assert len(said) == 8
    assert [line for line in block.stdout.splitlines() if line.startswith("# not named: ")] == [f"# {s}" for s in said]
    # still a config block
    assert set(yaml.safe_load(block.stdout)["tools"]["tool_search"]) == {"threshold_pct", "listing_max_tokens"}


def test_why_a_server_is_not_named_says_every_length_that_leaves_it_out() -> None:
    # One goal for every length: the cheapest "listed" setting names 1 of 9 servers at 32K, 200K
    # and 1M alike. "at 32K" alone would read as if 200K and 1M named GitHub.
    result = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "listed")
    assert result.returncode == 0, result.stderr
    assert [row.split()[5] for row in result.stdout.splitlines() if re.match(r"\d+[KM] ", row)] == ["1/9"] * 3
    assert ("not named: github: the goal allows a summary line at every listed length; naming it needs a budget "
            "of 1,473 tokens") in result.stdout.splitlines(), result.stdout
    # a goal per length that relaxes 32K only: the other lengths name it, so the line names 32K alone
    relaxed = run_cli("recommend", TEAM, "--context-lengths", "32k,200k,1m", "--goal", "names,32k=listed")
    assert ("not named: github: the goal allows a summary line at 32K; naming it needs a budget of 1,473 tokens"
            in relaxed.stdout.splitlines()), relaxed.stdout


def test_called_tools_the_recommendation_leaves_unnamed_are_named() -> None:
    # Asking only "listed" at 16K gives one server's names there; the sample sessions called seven
    # tools of the others. The table's "0/7" alone does not say which.
    args = ("recommend", TEAM, "--context-lengths", "16k,200k", "--goal", "names,16k=listed",
            "--sessions", ROOT / "sample_sessions" / "state.db")
    called = ["mcp__github__create_issue", "mcp__github__get_job_logs", "mcp__grafana__get_current_oncall_users",
              "mcp__grafana__get_dashboard_panel_queries", "mcp__grafana__search_dashboards",
              "mcp__linear__list_my_issues", "mcp__slack__slack_post_message"]
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith("called in the sessions")]
    assert lines == [f"called in the sessions but not named at 16K: 7 of 7 tools ({', '.join(called)}); the "
                     "model has to search for them"], result.stdout
    row = next(line for line in result.stdout.splitlines() if line.startswith("16K "))
    assert row.split()[7] == "0/7", row  # called_listed
    data = _json(run_cli(*args, "--json"))
    assert data["sessions"]["called_not_named"] == [{"context_length": 16_000, "tools": called},
                                                    {"context_length": 200_000, "tools": []}]
    # every called tool named: no such line
    named = run_cli("recommend", TEAM, "--context-lengths", "32k,200k", "--goal", "names",
                    "--sessions", ROOT / "sample_sessions" / "state.db")
    assert named.returncode == 0 and "called in the sessions" not in named.stdout, named.stdout


def test_a_recommendation_for_a_session_scope_says_what_every_other_session_gets() -> None:
    # A support bot sees slack and github; its cheapest "names" setting (470 tokens) is one block
    # for the whole harness, and there it collapses github, grafana, linear, notion and playwright.
    args = ("recommend", TEAM, "--context-lengths", "32k,200k", "--goal", "names", "--scope", "bot=slack,github")
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    outside = [line for line in result.stdout.splitlines() if line.startswith("whole catalog")]
    assert outside == [f"whole catalog (sessions outside scope bot) at {n}: mixed · 4 of 9 servers named (40 tools); "
                       "not named: github, grafana, linear, notion, playwright" for n in ("32K", "200K")], result.stdout
    block = run_cli(*args, "--yaml").stdout
    assert [line for line in block.splitlines() if line.startswith("# whole catalog")] == [f"# {x}" for x in outside]
    assert yaml.safe_load(block)["tools"]["tool_search"]["listing_max_tokens"] == 470
    data = _json(run_cli(*args, "--json"))
    assert [o["not_named"] for o in data["outside_scope"]] == [["github", "grafana", "linear", "notion", "playwright"]] * 2
    # the same settings planned for the whole catalog agree
    plan = _json(run_cli("plan", TEAM, "--context-length", "32k", "--threshold-pct", "1.5", "--listing-max-tokens",
                         "470", "--json"))
    assert sorted(s["name"] for s in plan["servers"] if s["state"] == "summary") == [
        "github", "grafana", "linear", "notion", "playwright"]
    # without a scope, or with one that reaches every server, there is no such line
    outside_words = "whole catalog (sessions outside scope"
    assert outside_words not in run_cli("recommend", TEAM, "--context-lengths", "32k", "--goal", "names").stdout
    every = run_cli("recommend", TEAM, "--context-lengths", "32k", "--goal", "names", "--scope", "all=*")
    assert every.returncode == 0 and outside_words not in every.stdout, every.stdout
    # the gate line says why a scope gets none, as the block's '# gate:' comment does
    assert every.stdout.splitlines()[-1] == "gate: none for scope all: toolsearch check judges the whole catalog"


def test_a_context_of_one_token_is_not_called_1_tokens() -> None:
    # no request fits one token: the length is left out, and said so in the singular
    result = run_cli("recommend", TEAM, "--context-lengths", "1,32k", "--goal", "names")
    assert result.returncode == 1, result.stderr  # 1 token is not reached
    assert "(1 tokens)" not in result.stdout and "1 tokens" not in result.stdout, result.stdout
    assert ("at 1 token no setting fits: the tools array alone (1,160 tokens, chars4) is larger than the context "
            "length (1 token) with nothing listed") in result.stdout, result.stdout


def test_with_the_listing_off_a_server_is_not_named_because_the_listing_is_off(tmp_path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text('tools:\n  tool_search:\n    listing: "off"\n', encoding="utf-8")
    result = run_cli("recommend", TEAM, "--config", config, "--context-lengths", "32k,200k", "--goal", "names")
    assert result.returncode == 1, result.stderr
    said = [line for line in result.stdout.splitlines() if line.startswith("not named: ")]
    assert len(said) == 9 and all(line.endswith(": listing is off, so no listing is ever embedded") for line in said), said
    assert "no budget names it" not in result.stdout


def test_a_listing_that_takes_a_large_share_of_a_short_context_is_said_everywhere() -> None:
    """``full`` at 8K needs threshold_pct 45.7: the listing then takes almost half of that context.
    The text, the exported block and the JSON say so for 8K only (the listing is the same size at
    1M, a tiny share there), with the listing's planning tokens over the context length."""
    args = ("recommend", TEAM, "--context-lengths", "8k,unknown,1m", "--goal", "full")
    data = _json(run_cli(*args, "--json"))
    tokens = data["contexts"][0]["listing_tokens"]
    share = round(100 * tokens / 8000, 1)
    assert share > 25 and data["large_share"] == [{"context_length": 8000, "listing_tokens": tokens, "share_pct": share}]
    # the whole tools array beside it: what is left of 8K for the rest of every request
    tools = data["contexts"][0]["tools_tokens"]
    assert tools > tokens
    line = (f"large share at 8K: the listing takes {tokens:,} tokens, {share:.1f}% of the context, and the whole tools "
            f"array {tools:,}, leaving {8000 - tools:,} tokens for the system prompt, the conversation and the reply; "
            "a lower goal for that length, or a reserve for the conversation (--reserve PCT), leaves it more room")
    text = run_cli(*args)
    assert line in text.stdout.splitlines() and "large share at 1M" not in text.stdout
    assert f"# {line}" in run_cli(*args, "--yaml").stdout.splitlines()
    docs = " ".join((ROOT / "docs" / "tuning.md").read_text(encoding="utf-8").split())  # the figures docs quote
    assert (f"`threshold_pct` {data['threshold_pct']:g}, and the listing" in docs
            and f"(`large share at 8K: the listing takes {tokens:,} tokens, {share:.1f}% of the context, and the whole "
                f"tools array {tools:,}, leaving {8000 - tools:,} tokens for the system prompt, the conversation and the "
                "reply; ...`)" in docs)
    # a goal that keeps the listing small at 8K: nothing to say
    assert _json(run_cli("recommend", TEAM, "--context-lengths", "8k,1m", "--goal", "listed", "--json"))["large_share"] == []


def test_context_lengths_in_sentences_keep_their_thousands_separators() -> None:
    from toolsearch.analysis.recommend import context_words

    assert [context_words(n) for n in (None, 8_000, 32_000, 1_000_000, 10_000_000_000, 2_500_000_000_000, 12_345)] == [
        "unknown", "8K", "32K", "1M", "10,000M", "2,500,000M", "12,345"]
    block = run_cli("recommend", TEAM, "--context-lengths", "32k,10000000000", "--goal", "names", "--yaml").stdout
    assert "# at 10,000M: names" in block and "10000M" not in block


def test_an_unknown_context_length_reads_as_one_in_sentences() -> None:
    """``--context-lengths unknown,...`` is allowed; sentences read "at unknown tokens" and "at
    unknown" (a word, not a length). They say "at an unknown context length"; table cells keep
    "unknown"."""
    catalog = ROOT / "sample_catalogs" / "team-workspace.yaml"
    check = run_cli("check", catalog, "--context-lengths", "unknown,32k", "--goal", "full",
                    "--max-listing-tokens", "100")
    assert check.returncode == 1, check.stderr
    lines = check.stdout.splitlines()
    assert lines[0].endswith("at the context lengths unknown, 32K"), lines[0]
    assert ("at an unknown context length and at 32K: the listing is 3,656 and 1,473 tokens, above the "
            "limit of 100") in lines
    assert any(line.startswith("unknown ") for line in lines)  # the table's cell
    rec = run_cli("recommend", catalog, "--context-lengths", "unknown,32k,1m", "--goal",
                  "32k=full,unknown=full,1m=names", "--yaml")
    assert rec.returncode == 0, rec.stderr
    text = run_cli("recommend", catalog, "--context-lengths", "unknown,32k,1m", "--goal",
                   "32k=full,unknown=full,1m=names")
    assert "budget needed: 3,656 tokens at an unknown context length and 32K; 1,473 tokens at 1M" in text.stdout
    assert "# at an unknown context length: full" in rec.stdout
    assert not re.search(r"\bat unknown\b", check.stdout + text.stdout + rec.stdout)


def test_headroom_out_of_reach_keeps_the_best_listing_instead_of_the_largest_settings() -> None:
    # At 8K no listing of the team workspace keeps 200 % headroom, yet every server fits at names:
    # the answer must not be "nothing can be listed" with 100 % / 60,000 (a listing that may grow
    # into the whole 8K context), but names with as much room as stays below the full listing.
    result = run_cli("recommend", TEAM, "--context-lengths", "8k,1m", "--goal", "names", "--headroom", "200")
    assert result.returncode == 1, result.stderr
    assert "nothing can be listed" not in result.stdout
    assert "less than the 200% headroom asked" in result.stdout
    data = _json(run_cli("recommend", TEAM, "--context-lengths", "8k,1m", "--goal", "names", "--headroom", "200",
                         "--json"))
    full = _json(run_cli("plan", TEAM, "--context-length", "1m", "--json"))
    assert (data["threshold_pct"], data["listing_max_tokens"]) != (100.0, 60_000)
    short, long = data["contexts"]
    assert short["listing_form"] == "names" and short["servers_named"] == short["servers_total"]
    # the budget at 8K is as large as the 0.1 % grid gives without choosing the full listing
    assert full["listing_tokens"] - 10 < short["budget"] < full["listing_tokens"] and short["headroom_tokens"] > 0
    # 1M fits the goal with its 200 % headroom: the full listing in three times its size (the goal is
    # names or better: with 200 % room no smaller listing can be chosen below the full one)
    assert (long["listing_form"], long["budget"]) == ("full", 3 * full["listing_tokens"])
    assert data["budget_needed"] == data["listing_max_tokens"] == 3 * full["listing_tokens"]


def test_an_excepted_server_named_at_longer_lengths_says_where_it_collapses(tmp_path) -> None:
    # github may collapse, and does at 32K, but 1M's own goal (full) names it: "not named: github:
    # may collapse" alone read as if no length named it, beside a 1M row of 9/9 servers named.
    args = ("recommend", TEAM, "--context-lengths", "32k,1m", "--goal", "listed,1m=full", "--except", "github")
    data = _json(run_cli(*args, "--json"))
    rows = {c["context_length"]: c for c in data["contexts"]}
    assert rows[1_000_000]["servers_named"] == rows[1_000_000]["servers_total"]
    github = next(u for u in data["unnamed"] if u["name"] == "github")
    assert "collapsed at 32K only, named at 1M" in github["reason"], github
    text = run_cli(*args).stdout
    block = run_cli(*args, "--yaml").stdout
    line = "not named: github: may collapse (an exception to the goal); collapsed at 32K only, named at 1M;"
    assert line in text, text
    assert "# " + line in block, block
    # an excepted server collapsed at every length keeps its words
    data = _json(run_cli("recommend", TEAM, "--context-lengths", "32k,1m", "--goal", "listed", "--except", "github",
                         "--json"))
    github = next(u for u in data["unnamed"] if u["name"] == "github")
    assert "only" not in github["reason"], github


def test_a_server_named_at_longer_lengths_is_not_said_unnamed_without_where() -> None:
    # With a goal per length, cloudflare cannot be named at 32K but is at 200K and 1M (their own
    # goal, full): the "not named" line says so beside those rows of 10/10 servers named.
    data = _json(run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal",
                         "names,200k=full,1m=full", "--json"))
    rows = {c["context_length"]: c for c in data["contexts"]}
    assert rows[200_000]["servers_named"] == rows[200_000]["servers_total"] == 10
    cloudflare = next(u for u in data["unnamed"] if u["name"] == "cloudflare")
    assert cloudflare["reason"].endswith("; named at 200K and 1M"), cloudflare


def test_a_tab_or_line_break_in_a_server_name_is_escaped_in_the_lines_about_it(tmp_path) -> None:
    """recommend's and check's sentences are one line each: a server named with a tab or a line
    break shows it as an escape (a raw tab read as spaces; a line break started a line of its own)."""
    big = {"name": "big\tone\nx", "kind": "mcp", "capabilities": {"tools": {}},
           "tools": [{"name": f"tool_number_{i}", "description": "word " * 20,
                      "inputSchema": {"type": "object", "properties": {}}} for i in range(1500)]}
    small = {"name": "small", "kind": "mcp", "capabilities": {"tools": {}},
             "tools": [{"name": "s", "description": "short", "inputSchema": {"type": "object", "properties": {}}}]}
    catalog = tmp_path / "tabby.json"
    catalog.write_text(json.dumps({"name": "tabby", "servers": [big, small]}), encoding="utf-8")
    gate = ("--context-lengths", "2k", "--goal", "names")
    recommended = run_cli("recommend", catalog, *gate)
    assert recommended.returncode == 1 and "\t" not in recommended.stdout, recommended.stdout
    assert "not named: big⟨U+0009⟩one⟨U+000A⟩x: naming it needs a budget of" in recommended.stdout
    checked = run_cli("check", catalog, *gate)
    assert checked.returncode == 1 and "\t" not in checked.stdout, checked.stdout
    assert "(collapsed to a summary line: big⟨U+0009⟩one⟨U+000A⟩x)" in checked.stdout
    for output in (recommended.stdout, checked.stdout):  # no line starts with the rest of the name
        assert not any(line.startswith("x") for line in output.splitlines())


@pytest.mark.parametrize(("goal", "words"), [
    ("names", "goal: every server at names or better; kept named at every length: slack ·"),
    ("full", "goal: every tool with its short description (form full); kept named at every length: slack ·"),
    ("listed", "goal: tool names listed (tier 1); kept named at every length: slack ·"),
])
def test_a_kept_server_is_not_asked_for_twice_when_the_goal_already_names_every_server(goal, words) -> None:
    done = run_cli("recommend", "sample_catalogs/five-servers.yaml", "--keep", "slack", "--goal", goal,
                   "--context-lengths", "32k,128k")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1].startswith(words), done.stdout
    checked = run_cli("check", "sample_catalogs/five-servers.yaml", "--keep", "slack", "--goal", goal,
                      "--context-lengths", "32k,128k", "--threshold-pct", "100", "--listing-max-tokens", "100000",
                      "--json")
    assert json.loads(checked.stdout)["goal_words"] == words.removeprefix("goal: ").removesuffix(" ·")


def test_a_goal_out_of_reach_only_for_the_headroom_says_how_much_headroom_reaches_it(tmp_path) -> None:
    """At 1M the full listing of a catalog of about 55,000 tokens fits under the largest
    listing_max_tokens (60,000), but not with 10 % headroom. The answer fell back to names at 1M with
    the reason "more than the largest listing_max_tokens" alone, as if no setting listed it in full:
    the headroom traded the full form away unsaid. The reason now says how much headroom reaches the
    goal, and that headroom does."""
    tools = [{"name": f"op_{i:04d}", "description": "Run one operation of the service on the given resource. " * 6,
              "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}} for i in range(2950)]
    catalog = tmp_path / "big.yaml"
    catalog.write_text(yaml.safe_dump({"servers": [{"name": "svc", "tools": tools}]}), encoding="utf-8")
    full = _json(run_cli("recommend", catalog, "--context-lengths", "1m", "--goal", "full", "--json"))
    need = full["goal_budget"]
    assert full["reached"] is True and 55_000 < need <= 60_000, need
    most = int((60_000 / need - 1) * 100)  # the whole headroom % whose budget still fits
    data = _json(run_cli("recommend", catalog, "--context-lengths", "1m", "--goal", "full", "--headroom", "10", "--json"))
    # the goal fits without the room: the answer keeps it (full, in the largest budget), with the room it
    # can keep, rather than trade the full form for the room
    assert data["reached"] is False and data["contexts"][0]["listing_form"] == "full"
    assert (data["contexts"][0]["budget"], data["headroom_kept_pct"]) == (60_000, most)
    assert data["reason"].endswith(f"more than the largest listing_max_tokens (60,000 tokens); {most}% headroom or "
                                   "less reaches it"), data["reason"]
    assert _json(run_cli("recommend", catalog, "--context-lengths", "1m", "--goal", "full", "--headroom", str(most),
                         "--json"))["reached"] is True
    assert _json(run_cli("recommend", catalog, "--context-lengths", "1m", "--goal", "full", "--headroom",
                         str(most + 1), "--json"))["reached"] is False

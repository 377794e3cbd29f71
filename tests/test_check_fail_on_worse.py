"""``toolsearch check --baseline OLD --fail-on-worse``: exit 1 at a context length where the change
makes disclosure worse than the baseline (a server of both catalogs in a worse state: visible →
full → names → summary → hidden, so also a higher tier that costs such a server), with one sentence
naming the length, the servers and their states before and after (and the tiers, when the tier
rose), in text, Markdown and JSON; a larger listing alone is not worse, nor a tier that rises only
with servers the baseline did not have; the option without ``--baseline`` is a usage error."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from toolsearch.analysis.check import check_catalog
from toolsearch.engine.catalog import load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector

ROOT = Path(__file__).resolve().parent.parent
MONDAY = ROOT / "docs" / "examples" / "diff-monday.yaml"
TUESDAY = ROOT / "docs" / "examples" / "diff-tuesday.yaml"
# at 4,600 tokens with threshold_pct 2 (a budget of 92), Monday's listing names every server (91
# tokens) and Tuesday's, one Slack tool larger, collapses Slack to a summary line
COLLAPSE = ("check", TUESDAY, "--baseline", MONDAY, "--context-lengths", "4600,200k", "--goal", "any",
            "--threshold-pct", "2")
SENTENCE = "worse than the baseline: server listed worse: slack (names → summary)"


def test_a_server_collapsing_against_the_baseline_fails_in_every_format() -> None:
    text = run_cli(*COLLAPSE, "--fail-on-worse")
    assert text.returncode == 1, text.stderr
    assert text.stdout.startswith("toolsearch check failed at 4,600 tokens: ")
    assert f"\nat 4,600 tokens: {SENTENCE}\n" in text.stdout
    assert "200K: worse" not in text.stdout  # Tuesday's listing is larger there, still full
    markdown = run_cli(*COLLAPSE, "--fail-on-worse", "--format", "markdown")
    assert markdown.returncode == 1
    assert f"\n- at 4,600 tokens: {SENTENCE}\n" in markdown.stdout
    data = json.loads(run_cli(*COLLAPSE, "--fail-on-worse", "--json").stdout)
    assert data["passed"] is False and data["fail_on_worse"] is True
    assert data["contexts"][0]["failures"] == [SENTENCE]
    assert data["contexts"][0]["holds"] is False
    assert data["contexts"][0]["baseline"]["worse_servers"] == [{"name": "slack", "before": "names", "after": "summary"}]
    assert data["contexts"][1]["failures"] == [] and data["contexts"][1]["baseline"]["worse"] is False
    assert data["suggestion"] is None  # the goal holds: no setting to suggest for it


def test_without_the_option_the_same_change_still_passes() -> None:
    done = run_cli(*COLLAPSE)
    assert done.returncode == 0, done.stdout
    assert "worse than the baseline" not in done.stdout
    data = json.loads(run_cli(*COLLAPSE, "--json").stdout)
    assert data["passed"] is True and data["fail_on_worse"] is False
    # the change is still reported for scripts, without failing the check
    assert data["contexts"][0]["baseline"]["worse"] is True
    assert data["contexts"][0]["failures"] == []


def test_the_same_catalog_as_baseline_passes() -> None:
    done = run_cli("check", TUESDAY, "--baseline", TUESDAY, "--context-lengths", "4600,200k", "--goal", "any",
                   "--threshold-pct", "2", "--fail-on-worse")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("toolsearch check passed: ")


def test_a_larger_listing_in_the_same_states_is_not_worse() -> None:
    """200K: Monday's full listing is 194 tokens, Tuesday's 217; every server stays full."""
    done = run_cli("check", TUESDAY, "--baseline", MONDAY, "--context-lengths", "200k", "--goal", "full",
                   "--fail-on-worse", "--json")
    data = json.loads(done.stdout)
    assert done.returncode == 0
    before = data["contexts"][0]["baseline"]["before"]["listing_tokens"]
    assert data["contexts"][0]["listing_tokens"] > before
    assert data["contexts"][0]["baseline"]["worse"] is False


def test_a_higher_tier_names_both_tiers(tmp_path: Path) -> None:
    on = tmp_path / "on.yaml"
    on.write_text("tools:\n  tool_search: {}\n", encoding="utf-8")
    off = tmp_path / "listing-off.yaml"
    off.write_text("tools:\n  tool_search:\n    listing: \"off\"\n", encoding="utf-8")
    disabled = tmp_path / "disabled.yaml"
    disabled.write_text("tools:\n  tool_search:\n    enabled: \"off\"\n", encoding="utf-8")
    common = ("--context-lengths", "200k", "--goal", "any", "--fail-on-worse")
    listing_off = run_cli("check", MONDAY, "--config", off, "--baseline", MONDAY, "--baseline-config", on, *common)
    assert listing_off.returncode == 1
    assert ("\nat 200K: worse than the baseline: tier 1 (full) → tier 2 (none); servers listed worse: "
            "github (full → hidden), linear (full → hidden), slack (full → hidden)\n") in listing_off.stdout
    activated = run_cli("check", MONDAY, "--config", on, "--baseline", MONDAY, "--baseline-config", disabled, *common)
    assert activated.returncode == 1
    # the core server (harness) is sent in full on both sides: not worse
    assert ("\nat 200K: worse than the baseline: tier 0 (every schema sent) → tier 1 (full); servers listed "
            "worse: github (visible → full), linear (visible → full), slack (visible → full)\n") in activated.stdout
    # the other way round is better, not worse
    deactivated = run_cli("check", MONDAY, "--config", disabled, "--baseline", MONDAY, "--baseline-config", on,
                          *common)
    assert deactivated.returncode == 0, deactivated.stdout


def test_a_tier_that_rises_only_with_new_servers_is_not_worse(tmp_path: Path) -> None:
    """The pull request that adds the catalog (an empty baseline), and one that adds MCP servers
    next to core tools that were all the baseline had: tier 0 → 1, but no server of the baseline
    is seen worse."""
    empty = tmp_path / "empty.yaml"
    empty.write_text("servers: []\n", encoding="utf-8")
    core = tmp_path / "core-only.yaml"
    core.write_text(yaml.safe_dump({"servers": [s for s in yaml.safe_load(MONDAY.read_text(encoding="utf-8"))["servers"]
                                                if s.get("kind") == "core"]}), encoding="utf-8")
    for baseline in (empty, core):
        done = run_cli("check", MONDAY, "--baseline", baseline, "--context-lengths", "200k", "--goal", "any",
                       "--fail-on-worse", "--json")
        data = json.loads(done.stdout)
        assert done.returncode == 0, data
        assert (data["contexts"][0]["baseline"]["before"]["tier"], data["contexts"][0]["tier"]) == (0, 1)
        assert data["contexts"][0]["baseline"]["worse_servers"] == []


def test_the_same_change_at_several_lengths_is_one_line() -> None:
    done = run_cli("check", TUESDAY, "--baseline", MONDAY, "--context-lengths", "4600,4800", "--goal", "any",
                   "--threshold-pct", "2", "--fail-on-worse")
    assert done.returncode == 1
    assert [line for line in done.stdout.splitlines() if line.startswith("at ")] == [
        f"at 4,600 and 4,800 tokens: {SENTENCE}"]


def test_a_server_name_with_a_line_break_stays_on_the_sentences_line(tmp_path: Path) -> None:
    evil = "x\n::error::forged\ntoolsearch check passed: all good"

    def catalog(path: Path, names: list[str]) -> Path:
        path.write_text(json.dumps({"servers": [{"name": name, "tools": [
            {"name": f"t{i}", "description": f"Do thing number {i} with a long enough description to take room "
                                              "in the listing.", "inputSchema": {"type": "object"}}
            for i in range(40)]} for name in names]}), encoding="utf-8")
        return path

    old, new = catalog(tmp_path / "old.json", [evil]), catalog(tmp_path / "new.json", [evil, "b", "c", "d"])
    args = ("check", new, "--baseline", old, "--context-lengths", "16k", "--goal", "any", "--fail-on-worse")
    marked = "x⟨U+000A⟩::error::forged⟨U+000A⟩toolsearch check passed: all good"
    for extra in ((), ("--format", "markdown")):
        done = run_cli(*args, *extra)
        assert done.returncode == 1
        for line in done.stdout.splitlines():
            assert not line.startswith(("::", "toolsearch check passed")), line
    assert f"at 16K: worse than the baseline: server listed worse: {marked} (names → summary)" \
        in run_cli(*args).stdout
    data = json.loads(run_cli(*args, "--json").stdout)
    assert data["contexts"][0]["failures"] == [(f"worse than the baseline: server listed worse: {marked} "
                                                "(names → summary)")]
    assert data["contexts"][0]["baseline"]["worse_servers"][0]["name"] == evil  # the data as it is


def test_the_option_without_a_baseline_is_a_usage_error() -> None:
    for extra in ((), ("--format", "github"), ("--json",)):
        done = run_cli("check", TUESDAY, "--context-lengths", "32k", "--goal", "any", "--fail-on-worse", *extra)
        assert done.returncode == 2
        # --format github also says it as an annotation (the same message); the others print nothing
        message = done.stderr.removeprefix("toolsearch: error: ").rstrip("\n")
        assert done.stdout == (f"::error title=toolsearch check%3A bad input::{message}\n" if extra[:1] == ("--format",)
                               else "")
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert done.stderr.startswith("toolsearch: error: check: --fail-on-worse: ")
        assert "--baseline" in done.stderr


def test_the_example_in_docs_ci_prints_the_line_it_shows() -> None:
    """docs/ci.md "Worse than the baseline": its command (in parentheses under the line) prints the
    line, with the budget the page names, and the condition titles it lists are the ones printed."""
    from toolsearch.cli.review import GITHUB_TITLES  # noqa: PLC0415

    doc = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    section = doc.split("### Worse than the baseline", 1)[1].split("\n## ", 1)[0]
    line = section.split("```text\n", 1)[1].split("\n```", 1)[0]
    command = section.split("(`toolsearch ", 1)[1].split("`:", 1)[0].split()
    done = run_cli(*command, cwd=ROOT)
    assert done.returncode == 1
    assert f"\n{line}\n" in done.stdout
    assert "in a budget of 92 tokens" in section and "\n4,600 tokens    92 " in done.stdout
    annotations = doc.split("### Annotations on the pull request", 1)[1].split("\n## ", 1)[0]
    listed = annotations.split("which condition: ", 1)[1].split(";", 1)[0].replace("\n", " ")
    assert sorted(t.strip("` ") for t in listed.split(", ")) == sorted(t.removeprefix("toolsearch check: ")
                                                                       for t in GITHUB_TITLES.values())


# --- invariants of "worse", on the library function the CLI calls ----------------------------------

_TEAM = Inspector(load_source(ROOT / "sample_catalogs" / "team-workspace.yaml"))
_lengths = st.lists(st.integers(min_value=1_000, max_value=1_000_000), min_size=1, max_size=4)
_caps = st.integers(min_value=200, max_value=8_000)


@settings(max_examples=25, deadline=None)
@given(lengths=_lengths, old_cap=_caps, extra=st.integers(min_value=0, max_value=8_000),
       pct=st.floats(min_value=0.5, max_value=20))
def test_a_larger_budget_is_never_worse(lengths: list[int], old_cap: int, extra: int, pct: float) -> None:
    """The same catalog with a listing_max_tokens at least as large as the baseline's (same
    threshold_pct): no server is ever seen worse, at any length; the same settings: none either."""
    old = parse_config({"threshold_pct": pct, "listing_max_tokens": old_cap})
    new = parse_config({"threshold_pct": pct, "listing_max_tokens": min(old_cap + extra, 60_000)})
    for config in (new, old):
        result = check_catalog(_TEAM, config, lengths, "any", "chars4", baseline=_TEAM, baseline_config=old,
                               fail_on_worse=True)
        assert all(c.change is not None and not c.change.worse for c in result.lengths)
        assert not any(m.kind == "worse" for c in result.lengths for m in c.misses)


@settings(max_examples=25, deadline=None)
@given(lengths=_lengths, new_cap=_caps, less=st.integers(min_value=1, max_value=8_000))
def test_worse_is_a_failure_exactly_with_the_option(lengths: list[int], new_cap: int, less: int) -> None:
    """A smaller listing_max_tokens than the baseline's: wherever a server is seen worse, the length
    fails with the option and the sentence names that server; without it, the verdict is the goal's."""
    old = parse_config({"listing_max_tokens": min(new_cap + less, 60_000)})
    new = parse_config({"listing_max_tokens": new_cap})
    gated = check_catalog(_TEAM, new, lengths, "any", "chars4", baseline=_TEAM, baseline_config=old, fail_on_worse=True)
    free = check_catalog(_TEAM, new, lengths, "any", "chars4", baseline=_TEAM, baseline_config=old)
    for g, f in zip(gated.lengths, free.lengths):
        assert g.change.worse == f.change.worse
        assert (g.worse is not None) == g.change.worse
        if g.change.worse:
            assert not g.holds and g.failures[-1] == g.worse.sentence
            assert g.change.worse_servers[0].name in g.worse.sentence
            assert g.worse.sentence not in f.failures
        else:
            assert g.failures == f.failures
    assert free.passed == all(not [m for m in c.misses if m.kind != "worse"] for c in gated.lengths)

"""A recommendation never trades a server away silently: where it lists less than the current
settings, ``recommend`` (text, ``--yaml``, ``--json``) and the Tuning page name every server the
current settings name and the recommendation does not, and the page and the CLI give the same
settings, listing and servers for the same inputs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import inspector_of, literal_tables, run_cli, write_yaml
from streamlit.testing.v1 import AppTest

from toolsearch.analysis.recommend import (
    lowered_changes,
    lowered_servers,
    no_longer_named,
    outcomes,
    recommend_for_contexts,
)
from toolsearch.analysis.sweep import listing_ladder
from toolsearch.engine.config import parse_config
from toolsearch.ui import common

ROOT = Path(__file__).absolute().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
CLOUDFLARE = ROOT / "sample_catalogs" / "cloudflare-flat.yaml"
#: Current settings that name Cloudflare at 1M (its names listing is 46,241 tokens).
WIDE = {"threshold_pct": 5, "listing_max_tokens": 60000}
LOST = "lower: 10 → 9 of 10 servers named; no longer named: cloudflare"


def _recommend(tmp_path, *extra: str):
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": WIDE}})
    return run_cli("recommend", TEAM, CLOUDFLARE, "--config", config, "--context-lengths", "32k,1m", "--goal", "names",
                   "--except", "cloudflare", *extra)


def test_recommend_names_the_server_it_no_longer_names(tmp_path) -> None:
    text = _recommend(tmp_path)
    assert text.returncode == 0, text.stderr
    # the headroom advice after it (tests/test_cli_recommend_headroom_line.py): here no headroom names cloudflare again
    assert (f"lists less than the current settings (threshold_pct 5%, listing_max_tokens 60,000) at 1M ({LOST}) · it is "
            "the cheapest setting that meets the goal · more headroom does not do it: no headroom up to 1,000% gives a "
            "setting that meets the goal and lists at least as much as the current settings at every length") in text.stdout.splitlines()
    block = _recommend(tmp_path, "--yaml")
    assert f"at 1M ({LOST})" in block.stdout
    data = json.loads(_recommend(tmp_path, "--json").stdout)
    assert data["lower_than_current"] == [{"context_length": 1_000_000, "change": "lower: 10 → 9 of 10 servers named",
                                           "no_longer_named": ["cloudflare"]}]


def test_no_longer_named_lists_every_server_lost_in_collapse_order() -> None:
    inspector = inspector_of([TEAM])
    ladder = listing_ladder(inspector.planner, parse_config({}), "chars4")
    # names at 32K with the defaults; 'listed' alone lets every server but one collapse
    rec = recommend_for_contexts(ladder, parse_config({}), [32_000], "listed")
    before = outcomes(ladder, 5.0, 4000, [32_000])[0]
    lost = no_longer_named(ladder, before, rec.contexts[0])
    collapse_order = [step.collapsed[-1] for step in ladder.steps if step.collapsed][:len(lost)]
    assert len(lost) == before.servers_named - rec.contexts[0].servers_named == 8
    assert list(lost) == collapse_order
    [(length, change, servers)] = lowered_servers(ladder, parse_config({}), rec)
    assert (length, servers) == (32_000, lost)
    assert lowered_changes(ladder, parse_config({}), rec) == [(32_000, f"{change}; no longer named: {', '.join(lost)}")]
    # the same settings: nothing lowered, nothing named
    same = parse_config({"threshold_pct": rec.threshold_pct, "listing_max_tokens": rec.listing_max_tokens})
    assert lowered_servers(ladder, same, rec) == []


@pytest.mark.parametrize("query, argv", [
    ({"lengths": "32k, 1m", "goal": "names", "except": "cloudflare", "with": "cloudflare-flat", "pct": "5", "cap": "60000"},
     [TEAM, CLOUDFLARE, "--context-lengths", "32k,1m", "--goal", "names", "--except", "cloudflare"]),
    ({"lengths": "8k, 200k", "goal": "listed", "keep": "github", "headroom": "10"},
     [TEAM, "--context-lengths", "8k,200k", "--goal", "listed", "--keep", "github", "--headroom", "10"]),
    ({"lengths": "unknown, 16k", "goal": "full", "goals": "16k=any", "except": "github", "pct": "1", "cap": "20000"},
     [TEAM, "--context-lengths", "unknown,16k", "--goal", "full,16k=any", "--except", "github"]),
    ({"lengths": "4k, 1m", "goal": "names", "with": "cloudflare-flat"},
     [TEAM, CLOUDFLARE, "--context-lengths", "4k,1m", "--goal", "names"]),
])
def test_the_tuning_page_says_what_recommend_says(tmp_path, query, argv) -> None:
    config = write_yaml(tmp_path / "config.yaml", {"tools": {"tool_search": {
        "threshold_pct": float(query.get("pct", 5)), "listing_max_tokens": int(query.get("cap", 4000))}}})
    data = json.loads(run_cli("recommend", *argv, "--config", config, "--json").stdout)
    text = run_cli("recommend", *argv, "--config", config).stdout
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query)
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    answer = "Recommended" if data["reached"] else "Best reachable"  # as recommend names it
    assert metrics[f"{answer} threshold_pct"] == f"{data['threshold_pct']:g}%"
    assert metrics[f"{answer} listing_max_tokens"] == f"{data['listing_max_tokens']:,} tokens"
    worst = min(data["contexts"], key=lambda c: (c["servers_named"], c["tools_named"]))
    # the fewest named at any length, labelled with where (as recommend's "N of M servers named at 32K")
    [label] = [name for name in metrics if name.startswith("Servers named at ")]
    least = [c for c in data["contexts"] if (c["servers_named"], c["tools_named"]) == (worst["servers_named"],
                                                                                     worst["tools_named"])]
    assert (label == "Servers named at every length") == (len(least) == len(data["contexts"])), label
    assert metrics[label] == f"{worst['servers_named']} of {worst['servers_total']}"
    table = literal_tables(at)["tuning_multi_table"]
    assert [cell.split("\n")[0] for cell in table[f"{answer.lower()}: listing"]] == [c["outcome"] for c in data["contexts"]]
    # every server not named, as recommend names it (a per-length goal it suggests is said on the page
    # in words, where recommend gives the command line: the words around it are the same)
    page = "\n".join(m.value for m in at.markdown).replace("\\", "")  # markdown escapes
    for server in data["unnamed"]:
        parts = re.split(r" \([^()]*; on the command line --goal [^()]*\)", server["reason"])
        assert all(part in page for part in parts), server
        assert "on the command line" not in page
    # where it lists less than the sidebar, the same words and servers as recommend's line
    lowered = [line for line in text.splitlines() if line.startswith("lists less than")]
    warnings = [w.value for w in at.warning if w.value.startswith("The recommendation lists less than")]
    assert len(lowered) == len(warnings) == (1 if data["lower_than_current"] else 0)
    for item in data["lower_than_current"]:
        for server in item["no_longer_named"]:
            assert server in warnings[0] and server in lowered[0]
        changes = list(table["change"])
        assert any(item["change"] in change and all(s in change for s in item["no_longer_named"]) for change in changes)
    if lowered:
        where = lowered[0].split(" at ", 1)[1].split(" · ")[0]
        assert f"at {where}." in warnings[0].replace("\\", ""), (where, warnings[0])


def test_a_server_with_no_tools_is_named_wherever_the_answer_is_read(tmp_path) -> None:
    """A server whose tools list came back empty is in no count ("1 of 1 servers named"): recommend's
    text, --yaml block, --json and the Tuning page name it."""
    catalog = write_yaml(tmp_path / "z.yaml", {"name": "Z", "servers": [
        {"name": "github", "tools": [{"name": "create_issue", "description": "Open an issue.",
                                      "inputSchema": {"type": "object"}}]},
        {"name": "empty one", "tools": []}]})
    line = ("no tools: empty one: the catalog lists no tools for it, so no setting names it and the servers counted "
            "leave it out; list its tools into the catalog again if there are any")
    text = run_cli("recommend", catalog, "--context-lengths", "32k", "--goal", "names")
    assert text.returncode == 0 and line in text.stdout.splitlines(), text.stdout
    block = run_cli("recommend", catalog, "--context-lengths", "32k", "--goal", "names", "--yaml").stdout
    assert f"# {line}" in block.splitlines(), block
    data = json.loads(run_cli("recommend", catalog, "--context-lengths", "32k", "--goal", "names", "--json").stdout)
    assert data["no_tools"] == ["empty one"] and data["contexts"][0]["servers_total"] == 1
    full = json.loads(run_cli("recommend", TEAM, "--context-lengths", "32k", "--goal", "names", "--json").stdout)
    assert full["no_tools"] == []
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k", "goal": "names"})
    at.run()
    at.sidebar.selectbox(key="catalog").set_value(common.UPLOAD).run()
    at.session_state["_upload_store"] = [("z.yaml", catalog.read_bytes())]
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    said = [w.value.replace("\\", "") for w in at.warning if w.value.startswith("No tools")]
    assert said == [line[0].upper() + line[1:] + "."], [w.value for w in at.warning]
    assert f"# {line}" in at.code[0].value.splitlines()  # the block to download says it too


def test_a_kept_server_out_of_reach_says_what_would_reach_the_goal() -> None:
    """--keep cloudflare where 32K cannot name it: exit 1, the reason, and what would reach it."""
    done = run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k,unknown,1m", "--goal", "listed",
                   "--keep", "cloudflare")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert ("not named: cloudflare: naming it needs a budget of 46,241 tokens, more than the budget of an unknown "
            "context length (10,000 tokens); named at 1M; it is kept named, which no setting does at 32K and an unknown context "
            "length, whatever the goal there: leave 32K and an unknown context length out of the context lengths, "
            "or stop keeping it named"
            ) in done.stdout.splitlines(), done.stdout
    # 1M alone names it: the goal is then reached
    alone = run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "1m", "--goal", "listed", "--keep", "cloudflare")
    assert alone.returncode == 0, alone.stdout
    only = json.loads(run_cli("recommend", TEAM, CLOUDFLARE, "--context-lengths", "32k", "--goal", "any", "--keep",
                              "cloudflare", "--json").stdout)
    assert only["unnamed"][0]["reason"].endswith("it is kept named, which no setting does at 32K, whatever the goal "
                                                 "there: no listed length can name it, so stop keeping it named")


def test_an_excepted_server_out_of_reach_says_the_goal_lets_it_collapse() -> None:
    """--except cloudflare, which 32K cannot name: its 'not named' line said only that naming it needs more
    than the whole context, which reads as a goal missed; it says first that the goal lets it collapse, in
    recommend's text, --yaml block and --json, and on the Tuning page (one function words them)."""
    argv = [TEAM, CLOUDFLARE, "--context-lengths", "32k,200k,1m", "--goal", "names", "--except", "cloudflare",
            "--headroom", "10"]
    reason = ("cloudflare: may collapse (an exception to the goal); naming it needs a budget of 50,866 tokens (with 10% "
              "headroom), more than the whole 32K context (32,000 tokens)")
    text = run_cli("recommend", *argv)
    assert text.returncode == 0 and f"not named: {reason}" in text.stdout.splitlines(), text.stdout
    block = run_cli("recommend", *argv, "--yaml").stdout
    assert f"# not named: {reason}" in block.splitlines(), block
    data = json.loads(run_cli("recommend", *argv, "--json").stdout)
    assert [(u["name"], u["reason"]) for u in data["unnamed"]] == [("cloudflare", reason)]
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"lengths": "32k, 200k, 1m", "goal": "names", "except": "cloudflare",
                            "with": "cloudflare-flat", "headroom": "10"})
    at.run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception, at.exception
    page = [m.value.replace("\\", "") for m in at.markdown if m.value.startswith("**Not named:**")]
    assert page == [f"**Not named:**\n- {reason}"], page

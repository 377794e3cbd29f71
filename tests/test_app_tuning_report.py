"""The Tuning and Report pages (Streamlit ``AppTest``) and the HTML report builder.

The page tests open the app with sidebar settings (through the URL, as a shared link does),
switch to the page and compare what it shows with the engine's own answers for the same settings (``toolsearch.analysis.sweep`` and
``toolsearch.engine.config.dump_config_block``). The report tests call
:func:`toolsearch.analysis.report.build_report` directly, on the hard-cases sample when it exists and
always on a small catalog with hostile text.

Note: in ``AppTest`` (Streamlit 1.67) an app next to a ``pages/`` folder runs through the legacy
multipage path (``PagesManager.uses_pages_directory`` is reset before every AppTest run), and
after the first run the sidebar is missing from the element tree: sidebar widget values set by
key do not survive a page switch. The tests therefore give the sidebar settings through the URL
query string, which the app mirrors into the same session keys (``ctx``, ``pct``, ``cap``,
``listing``, ``enabled``, ``tok``), and set the page's own widgets by key.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest

from conftest import heat_cells, inspector_of, literal_tables, run_cli
from toolsearch.analysis.quantities import length_label
from toolsearch.analysis import charts
from toolsearch.ui.common import STATE_COLORS, md_escape
from toolsearch.ui.preview import SANDBOX
from toolsearch.ui.collapse_views import VERDICT_BADGE
from toolsearch.analysis.collapse import collapse_table
from toolsearch.engine.config import dump_config_block, parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.report import GOALS, build_report, contrast_ratio, esc
from toolsearch import __version__
from toolsearch.analysis.recommend import (add_session_evidence, export_block, request_cost_lines, frontier, lowered_changes, outcomes,
                                           recommend_for_contexts)
from toolsearch.analysis.sessions import called_tools, load_sessions
from toolsearch.live.client import catalog_key
from toolsearch.analysis.quantities import form_word
from toolsearch.analysis.sweep import (FORM_RANK, HEATMAP_CONTEXT_LENGTHS, HEATMAP_LISTING_MAX_TOKENS, form_grid, listing_ladder,
                              plan_counts,
                              recommend)

ROOT = Path(__file__).absolute().parent.parent  # not resolve(): a shadow checkout may symlink tests
SAMPLES = ROOT / "sample_catalogs"
DEFAULT_SAMPLE = SAMPLES / "team-workspace.yaml"
HARD_CASES = SAMPLES / "hard-cases.yaml"
needs_samples = pytest.mark.skipif(not DEFAULT_SAMPLE.exists(),
                                   reason="sample_catalogs/team-workspace.yaml is not generated yet")
PRESETS = {"8K": 8_000, "32K": 32_000, "128K": 128_000, "200K": 200_000, "400K": 400_000, "1M": 1_000_000,
           "unknown": None}
EXTERNAL_SRC = re.compile(r"""\bsrc\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)


@functools.lru_cache(maxsize=8)
def inspector(catalog: str = "team-workspace", naming: str = "prefixed") -> Inspector:
    return inspector_of([SAMPLES / f"{catalog}.yaml"], naming)


def config_for(query: dict[str, str]):
    """The config the sidebar builds for these query parameters (defaults elsewhere)."""
    keys = {"enabled": "enabled", "listing": "listing", "pct": "threshold_pct", "cap": "listing_max_tokens"}
    return parse_config({keys[k]: v for k, v in query.items() if k in keys})


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    """A fresh app opened with these URL query parameters (sidebar settings), switched to ``page``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def metric(at: AppTest, label_start: str) -> str:
    for m in at.metric:
        if m.label.startswith(label_start):
            return m.value
    raise AssertionError(f"no metric {label_start!r}: {[m.label for m in at.metric]}")


# --- Tuning page -----------------------------------------------------------------------------------------

def export_of(rec, config, ins: Inspector) -> str:
    """The block for the default sample, whose gate line names its file as a command takes it, and
    which says where it lists less than ``config`` and from which headroom it would not, and where no
    request fits or tool search costs more (:func:`request_cost_lines`)."""
    ladder = listing_ladder(ins.planner, config, rec.planning_tokenizer)
    return export_block(rec, config, catalog_name=ins.catalog.name, fingerprint=catalog_key(ins.catalog),
                        version=__version__, catalogs=["sample_catalogs/team-workspace.yaml"],
                        lowered=lowered_changes(ladder, config, rec), ladder=ladder,
                        request_costs=request_cost_lines(rec, ins.planner, config))


@needs_samples
@pytest.mark.parametrize("query", [
    {},
    {"ctx": "32K", "pct": "2.0", "cap": "3000"},
    {"ctx": "unknown", "cap": "9000", "lengths": "8k, unknown"},
    {"ctx": "1M", "pct": "0.5", "tok": "o200k_base", "goal": "full"},
])
def test_tuning_recommendation_and_export_match_engine(query):
    at = open_page("toolsearch/ui/tuning.py", query)
    ctx = PRESETS[query.get("ctx", "200K")]
    config = config_for(query)
    ins = inspector()
    ladder = listing_ladder(ins.planner, config, query.get("tok", "chars4"))
    sidebar_line = next(c.value for c in at.caption if c.value.startswith("Sidebar: "))  # under the tier bar
    assert sidebar_line.startswith(
        f"Sidebar: context length {length_label(ctx)} · threshold_pct {config.threshold_pct:g}%, "
        f"listing_max_tokens {config.listing_max_tokens:,} · planning tokenizer {ladder.planning_tokenizer}.")
    lengths = {"8k, unknown": [8_000, None]}.get(query.get("lengths"), [32_000, 128_000, 200_000, 1_000_000])
    rec = recommend_for_contexts(ladder, config, lengths, query.get("goal", "names"))
    assert metric(at, "Recommended threshold_pct") == f"{rec.threshold_pct:g}%"
    assert metric(at, "Servers named at every length") == f"{rec.worst.servers_named} of {rec.worst.servers_total}"
    # the export block is the library's, with its provenance (st.code trims the final newline)
    assert at.code[0].value == export_of(rec, config, ins).rstrip("\n")
    assert at.code[0].language == "yaml"
    # its comment lines ("# headroom: 10% · absorbs ...", "# at 32K: names · 9 of 9 servers named ...") are
    # wider than the page at 1400 px: wrapped, not cut off behind a horizontal scroll
    assert max(map(len, at.code[0].value.splitlines())) > 90 and at.code[0].proto.wrap_lines
    block = yaml.safe_load(at.code[0].value)["tools"]["tool_search"]
    assert (block["threshold_pct"], block["listing_max_tokens"]) == (rec.threshold_pct, rec.listing_max_tokens)
    # the single-length answer is a column of the table
    for row, length in zip(multi_table(at), lengths):
        alone = recommend_for_contexts(ladder, config, [length], query.get("goal", "names"))
        assert row["this length alone"].startswith(f"{alone.threshold_pct:g}% / {alone.listing_max_tokens:,} tokens")



@needs_samples
def test_tuning_fingerprints_the_catalog_once_not_on_every_slider_move(monkeypatch):
    """The export block's fingerprint hashes the whole catalog as YAML (9 s for the 3,478 tools of
    team-workspace + cloudflare-flat): a slider move must reuse it, not compute it again."""
    import toolsearch.live.client as client
    calls: list[int] = []
    real = client.catalog_key
    monkeypatch.setattr(client, "catalog_key", lambda catalog: calls.append(1) or real(catalog))
    import toolsearch.ui.common as common  # it hashes the catalog for the page (imported once, not per run)
    monkeypatch.setattr(common, "catalog_key", client.catalog_key)
    # an earlier page test in this process may have fingerprinted the catalog already (the result
    # lives with the cached catalog): start from empty caches, so the first run must compute it
    import streamlit as st
    st.cache_resource.clear()
    st.cache_data.clear()
    at = open_page("toolsearch/ui/tuning.py", {"pct": "4.0"})
    before = len(calls)
    assert before >= 1, "the counter saw no fingerprint: it counts the wrong function"
    at.query_params["pct"] = "4.1"
    at.run()
    assert not at.exception, at.exception
    assert len(calls) == before, "the catalog was fingerprinted again on a rerun"
    assert f"(fingerprint {real(inspector().catalog)})" in at.code[0].value

# --- Tuning: one setting for several context lengths ----------------------------------------------------

def multi_table(at: AppTest) -> list[dict]:
    return literal_tables(at)["tuning_multi_table"].to_dict("records")


@needs_samples
def test_tuning_multi_length_recommendation_matches_engine():
    at = open_page("toolsearch/ui/tuning.py", {})
    config = parse_config({})
    ladder = listing_ladder(inspector().planner, config)
    lengths = [32_000, 128_000, 200_000, 1_000_000]
    assert at.text_input(key="tuning_contexts").value == "32k, 128k, 200k, 1m"
    assert at.selectbox(key="tuning_context_preset").value == "Typical mix (32K, 128K, 200K, 1M)"
    rec = recommend_for_contexts(ladder, config, lengths, "names")
    now = outcomes(ladder, config.threshold_pct, config.listing_max_tokens, lengths)
    assert metric(at, "Recommended threshold_pct") == f"{rec.threshold_pct:g}%"
    assert metric(at, "Recommended listing_max_tokens") == f"{rec.listing_max_tokens:,} tokens"
    rows = multi_table(at)
    assert [r["context length"] for r in rows] == [length_label(c) for c in lengths]
    # both sides in the same words, so the budget behind each listing reads side by side
    # the sidebar holds the defaults: its column says so, as the block's "default settings" does
    assert [r["default: listing"] for r in rows] == [
        f"{o.outcome}\n{o.listing_tokens:,} of {o.budget:,} budget tokens" for o in now]
    assert [r["default: listing"].split("\n")[1] for r in rows][1] == "3,656 of 4,000 budget tokens"
    assert [r["recommended: listing"] for r in rows] == [
        f"{o.outcome}\n{o.listing_tokens:,} of {o.budget:,} budget tokens" for o in rec.contexts]
    assert all(" servers named (" in r["recommended: listing"] for r in rows)  # counts, never a form alone
    # the default sample lists everything at 200K today; the cheapest "names" setting lowers that: warned
    lowered = [o.context_length for a, o in zip(now, rec.contexts) if FORM_RANK[o.listing_form] > FORM_RANK[a.listing_form]]
    assert lowered, "the sample should show the lowered-form warning"
    # (the session-file path input, folded away, asks a browser it cannot place for the launch token)
    warnings = [w.value for w in at.warning if "launch token" not in w.value]
    assert len(warnings) == 1 and warnings[0].startswith("The recommendation lists less than the default settings at ")
    assert "200K (lower form: full → names)" in warnings[0]  # lengths as recommend writes them
    advice, keeps = warnings[0].split("\n\n")
    assert advice.endswith("to list more there, give those lengths a stricter goal (Other goal at some "
                           "lengths) or keep the default settings. More headroom lists at least as much as the default "
                           "settings at every length only from 149% headroom on.")  # advice it can follow
    # the goal that keeps them, in words and with what to enter in the page's field (not the command line's --goal)
    assert keeps.startswith(md_escape("A per-length goal keeps what the default settings list at 128K, 200K and 1M "
                                      "(goal: every server at names or better at 32K; "))
    assert md_escape("· Other goal at some lengths: 128k=full, 200k=full, 1m=full); that goal takes") in keeps


def test_the_lowered_listing_warning_does_not_say_an_unreachable_goal_is_met():
    """At 2,500 tokens (a request with a listing of up to 1,472 tokens fits it) names for every server is out of reach: the best reachable setting names fewer servers
    at 1M than the sidebar does. The warning says so, in the words of ``toolsearch recommend``
    ("the best reachable setting"), not that the setting "still meets the goal"."""
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "2500,1m", "goal": "names"})
    config = parse_config({})
    ladder = listing_ladder(inspector().planner, config)
    rec = recommend_for_contexts(ladder, config, [2_500, 1_000_000], "names")
    assert not rec.reached
    assert metric(at, "Best reachable listing_max_tokens") == f"{rec.listing_max_tokens:,} tokens"
    warnings = [w.value for w in at.warning if w.value.startswith("The best reachable setting lists less than")]
    assert len(warnings) == 1, [w.value for w in at.warning]
    # the two servers it trades away are named, not only counted
    # (1M keeps the goal, every server named, but not the full listing the sidebar's settings give)
    assert "1M (lower form: full → names)" in warnings[0], warnings
    assert "meets the goal" not in warnings[0] and "best reachable setting" in warnings[0], warnings
    assert "headroom" not in warnings[0]  # more headroom cannot name more where the budget is the whole context
    # the block to ship says it too, in recommend's words, and is the one `recommend --yaml` prints
    block = at.code[0].value
    lowered = ("# lists less than the default settings (threshold_pct 5%, listing_max_tokens 4,000) at 1M "
               "(lower form: full → names) · it is the best reachable setting")
    assert lowered in block.splitlines(), block
    cli = run_cli("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", "2500,1m", "--goal", "names",
                  "--yaml", cwd=ROOT)
    assert cli.stdout.rstrip("\n") == block
    text = run_cli("recommend", "sample_catalogs/team-workspace.yaml", "--context-lengths", "2500,1m", "--goal", "names",
                   cwd=ROOT).stdout
    assert lowered[2:] in text.splitlines()


@needs_samples
@pytest.mark.parametrize("query", [{}, {"ctx": "32K", "pct": "2.0", "cap": "3000", "tok": "o200k_base"}])
def test_tuning_shows_the_best_collapse_per_length(query):
    at = open_page("toolsearch/ui/tuning.py", query)
    sidebar = config_for(query)
    # computed at the recommended settings shown on the same page, and the heading says which
    pct = float(metric(at, "Recommended threshold_pct").rstrip("%"))
    cap = int(metric(at, "Recommended listing_max_tokens").split()[0].replace(",", ""))
    config = sidebar.with_overrides(threshold_pct=pct, listing_max_tokens=cap)
    heading = next(m.value for m in at.markdown if m.value.startswith("**Best collapse per context length**"))
    assert heading == (f"**Best collapse per context length** at the recommended settings (threshold_pct {pct:g}%, "
                       f"listing_max_tokens {cap:,})")
    # the lengths of the page's own list (its default, 32k, 128k, 200k, 1m)
    lengths = [32_000, 128_000, 200_000, 1_000_000]
    rows = collapse_table(inspector().planner, config, lengths, query.get("tok", "chars4"))
    at_sidebar = collapse_table(inspector().planner, sidebar, lengths, query.get("tok", "chars4"))
    assert [r.budget for r in rows] != [r.budget for r in at_sidebar]  # the two settings differ here
    table = literal_tables(at)["tuning_collapse"].to_dict("records")
    assert [r["context length"] for r in table] == ["32K", "128K", "200K", "1M"]
    assert [r["budget (tokens)"] for r in table] == [f"{r.budget:,}" for r in rows]
    # the form is never shown alone: "mixed · 9 of 10 servers named", counted over the servers with deferred tools
    total = plan_counts(inspector().plan(config, 200_000)).servers_total
    assert total > 1
    expected = [f"{form_word(f)} · {k:,} of {total:,} servers named" if f != "none" else "none"
                for f, k in ((r.reference_form, r.reference_kept) for r in rows)]
    assert [r["reference form"] for r in table] == expected
    assert [r["best form"] for r in table] == [f"{form_word(f)} · {k:,} of {total:,} servers named" if f != "none"
                                               else "none" for f, k in ((r.best_form, r.best_kept) for r in rows)]
    assert not any(r["reference form"] == "mixed" for r in table)
    assert [r["tool names (ref → best)"] for r in table] == [f"{r.reference_names:,} → {r.best_names:,}" for r in rows]
    assert [r["verdict"] for r in table] == [VERDICT_BADGE[r.verdict][0] for r in rows]
    # another list: the table follows it, "unknown" included
    at.text_input(key="tuning_contexts").set_value("8k, unknown").run()
    table = literal_tables(at)["tuning_collapse"].to_dict("records")
    assert [r["context length"] for r in table] == ["8K", "unknown"]


@needs_samples
def test_tuning_presets_goal_and_apply_to_sidebar():
    at = open_page("toolsearch/ui/tuning.py", {})
    at.selectbox(key="tuning_context_preset").set_value("Local models (8K, 32K, 128K)").run()
    assert at.text_input(key="tuning_contexts").value == "8k, 32k, 128k"
    at.text_input(key="tuning_contexts").set_value("64k, 16k").run()
    assert at.selectbox(key="tuning_context_preset").value == "Custom"  # edited: no preset any more
    assert at.query_params["lengths"] in ("64k, 16k", ["64k, 16k"])
    at.selectbox(key="tuning_multi_goal").set_value("listed").run()
    config = parse_config({})
    ladder = listing_ladder(inspector().planner, config)
    rec = recommend_for_contexts(ladder, config, [64_000, 16_000], "listed")
    assert rec.reached
    assert [r["context length"] for r in multi_table(at)] == ["64K", "16K"]
    assert metric(at, "Recommended threshold_pct") == f"{rec.threshold_pct:g}%"
    # one click: the sidebar settings (and the URL) take the recommendation
    at.button(key="tuning_apply_multi").click().run()
    assert not at.exception
    assert (at.session_state["threshold_pct"], at.session_state["listing_max_tokens"]) == (
        rec.threshold_pct, rec.listing_max_tokens)
    assert at.query_params["pct"] == [str(rec.threshold_pct)] or at.query_params["pct"] == str(rec.threshold_pct)
    rows = multi_table(at)
    assert all(r["change"] == "same listing" for r in rows)
    assert [r["current: listing"].split("\n")[0] for r in rows] == [o.outcome for o in rec.contexts]
    assert at.button(key="tuning_apply_multi").disabled  # nothing left to apply
    # the list, goal and headroom survive a trip to another page
    at.number_input(key="tuning_headroom").set_value(15.0).run()
    at.switch_page("toolsearch/ui/overview.py").run()
    at.switch_page("toolsearch/ui/tuning.py").run()
    assert not at.exception
    assert (at.text_input(key="tuning_contexts").value, at.selectbox(key="tuning_multi_goal").value,
            at.number_input(key="tuning_headroom").value) == ("64k, 16k", "listed", 15.0)
    assert at.selectbox(key="tuning_context_preset").value == "Custom"


@needs_samples
def test_tuning_multi_length_errors_and_unreachable():
    at = open_page("toolsearch/ui/tuning.py", {})
    at.text_input(key="tuning_contexts").set_value("32k, lots").run()
    assert at.error[0].value.replace("\\", "") == ("Context lengths: expected a positive number of tokens from 1 to "
                                                   "10,000,000,000 (e.g. 200000, 200k, 1m) or 'unknown', got 'lots'.")
    # 0 and a length past the largest are numbers: the message gives the range, not "not a number"
    for text, shown in (("0", "'0'"), ("32k, 99999999999", "'99999999999'")):
        at.text_input(key="tuning_contexts").set_value(text).run()
        assert at.error[0].value.replace("\\", "") == ("Context lengths: expected a positive number of tokens from 1 to "
                                                       f"10,000,000,000 (e.g. 200000, 200k, 1m) or 'unknown', got {shown}.")
    # 1,200 tokens of context cannot hold the full listing even at 100% (1,000 fits no request at all)
    at.text_input(key="tuning_contexts").set_value("1200, 200k").run()
    at.selectbox(key="tuning_multi_goal").set_value("full").run()
    config = parse_config({})
    ins = inspector()
    rec = recommend_for_contexts(listing_ladder(ins.planner, config), config, [1_200, 200_000], "full")
    assert not rec.reached
    assert at.error[0].value.startswith(f"Not reachable at every listed context length: {rec.reason}.")
    assert metric(at, "Best reachable threshold_pct") == f"{rec.threshold_pct:g}%"
    # the block is still exported, saying the goal is not reached
    assert at.code[0].value == export_of(rec, config, ins).rstrip("\n")
    assert f"# not reached: {rec.reason}" in at.code[0].value


@needs_samples
def test_tuning_link_carries_goal_except_keep_and_headroom():
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "goal": "names", "except": "github,nope",
                                       "keep": "slack", "headroom": "10"})
    config = parse_config({})
    ins = inspector()
    ladder = listing_ladder(ins.planner, config)
    rec = recommend_for_contexts(ladder, config, [32_000, 200_000, 1_000_000], "names", except_servers=["github"],
                                 keep_servers=["slack"], headroom_pct=10)
    assert at.session_state["tuning_except"] == ["github"]  # a server the catalog lacks is dropped
    assert at.selectbox(key="tuning_context_preset").value == "Custom"
    assert metric(at, "Recommended listing_max_tokens") == f"{rec.listing_max_tokens:,} tokens"
    assert at.code[0].value == export_of(rec, config, ins).rstrip("\n")
    assert "# headroom: 10% · absorbs " in at.code[0].value
    assert all(c.budget >= 1.1 * c.listing_tokens for c in rec.contexts)
    assert any(c.value.startswith("Headroom 10%: the setting absorbs ") for c in at.caption)
    # a server in both lists: one clear error, no recommendation
    at.multiselect(key="tuning_keep").set_value(["slack", "github"]).run()
    assert at.error[0].value.replace("\\", "").startswith("github: a server cannot both collapse and stay named")


@needs_samples
def test_tuning_other_goal_at_some_lengths():
    """Per-length goals from the link and the text field: the same answer as the engine, each
    length's goal in the table, the export's goal comment, and errors naming the bad item."""
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "goal": "names", "goals": "1m=full"})
    config = parse_config({})
    ins = inspector()
    ladder = listing_ladder(ins.planner, config)
    rec = recommend_for_contexts(ladder, config, [32_000, 200_000, 1_000_000], "names",
                                 length_goals={1_000_000: "full"})
    plain = recommend_for_contexts(ladder, config, [32_000, 200_000, 1_000_000], "names")
    assert rec.reached and rec.listing_max_tokens > plain.listing_max_tokens  # 1M gets more than names
    assert at.text_input(key="tuning_length_goals").value == "1m=full"
    assert metric(at, "Recommended threshold_pct") == f"{rec.threshold_pct:g}%"
    assert metric(at, "Recommended listing_max_tokens") == f"{rec.listing_max_tokens:,} tokens"
    assert metric(at, "Largest budget needed") == f"{rec.budget_needed:,} tokens"
    rows = multi_table(at)
    # 200K sits between names (32K) and full (1M): the shared cap gives it full, and the table says so
    assert [r["goal"] for r in rows] == ["names", "names (gets more)", "full"]
    assert [r["recommended: listing"].split(" ·")[0] for r in rows] == ["names", "full", "full"]
    assert at.code[0].value == export_of(rec, config, ins).rstrip("\n")
    assert ("# goal: every server at names or better at 32K and 200K; every tool with its short description "
            "(form full) at 1M") in at.code[0].value
    # typed: a length not in the list, a goal without a length, an unknown goal
    for typed, error in (("64k=full", "Other goals: 64K is not in the context lengths"),
                         ("full", "Other goals: 'full' has no length"),
                         ("1m=fuller", "Other goals: '1m=fuller': expected a goal (full, names, listed, any)")):
        at.text_input(key="tuning_length_goals").set_value(typed).run()
        assert not at.exception
        shown = at.error[0].value.replace("\\", "")  # markdown escapes
        assert shown.startswith(error), shown
        assert not at.metric  # no recommendation from a goal it could not read
    at.text_input(key="tuning_length_goals").set_value("").run()
    assert metric(at, "Recommended listing_max_tokens") == f"{plain.listing_max_tokens:,} tokens"
    assert "goal" not in multi_table(at)[0]


@needs_samples
def test_tuning_errors_are_literal_and_name_the_field_to_fix():
    """Typed text comes back literally in the error (no markdown), and the export says which field
    stops it: the context lengths, the other goals, or a server in both lists."""
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,1m", "goal": "names"})
    # the goal selector does not claim every length when the field below gives some their own
    assert at.selectbox(key="tuning_multi_goal").label == "Goal (all other lengths)"
    at.text_input(key="tuning_contexts").set_value("32k, **big**").run()
    assert "\\*\\*big\\*\\*" in at.error[0].value
    assert at.info[-1].value == "Fix the context lengths above to get the block."
    at.text_input(key="tuning_contexts").set_value("32k, 1m").run()
    for typed, error in (("64k=full", "Other goals: 64K is not in the context lengths"),
                         ("=full", "Other goals: '=full': no length before '='"),
                         ("1m=full, 1000k=names", "Other goals: '1000k=names': '1m=full' already gives that length")):
        at.text_input(key="tuning_length_goals").set_value(typed).run()
        assert at.error[0].value.replace("\\", "").startswith(error), at.error[0].value
        assert at.info[-1].value == "Fix the other goals above to get the block."


@needs_samples
def test_tuning_with_sample_sessions_shows_called_tools_named():
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "8k,1m", "goal": "any"})
    at.multiselect(key="tuning_session_samples").set_value(["state.db"]).run()
    assert not at.exception
    config = parse_config({})
    ins = inspector()
    ladder = listing_ladder(ins.planner, config)
    loaded = load_sessions([SAMPLES.parent / "sample_sessions" / "state.db"])
    called, _ = called_tools(loaded.sessions, ins, config)
    rec = add_session_evidence(recommend_for_contexts(ladder, config, [8_000, 1_000_000], "any"), ladder, called)
    rows = multi_table(at)
    assert [r["called tools listed by name"] for r in rows] == [f"{c.called_listed}/{c.called_total}" for c in rec.contexts]
    assert [str(r["searches saved"]) for r in rows] == [str(c.searches_saved) for c in rec.contexts]
    assert rec.contexts[0].called_total > 0


@needs_samples
def test_tuning_frontier_marks_the_sidebar_and_the_recommendation():
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "8k,1m", "goal": "any"})
    at.session_state["tuning_frontier_open"] = True  # drawn only when opened
    at.run()
    assert not at.exception
    config = parse_config({})
    ins = inspector()
    ladder = listing_ladder(ins.planner, config)
    rec = recommend_for_contexts(ladder, config, [8_000, 1_000_000], "any")
    now = outcomes(ladder, config.threshold_pct, config.listing_max_tokens, [8_000, 1_000_000])
    points = frontier(ladder, 8_000)
    rows = literal_tables(at)["tuning_frontier_table"].to_dict("records")
    assert [(r["listing (tokens)"], r["listing"]) for r in rows] == [(f"{p.listing_tokens:,}", p.outcome) for p in points]
    # fewer tokens never name more servers, and every point fits the length's budget
    assert all(a.servers_named <= b.servers_named for a, b in zip(points, points[1:]))
    assert all(p.budget <= 8_000 for p in points)
    marked = {r["marked"]: r["listing (tokens)"] for r in rows if r["marked"]}
    assert marked == {"sidebar": f"{now[0].listing_tokens:,}", "recommended": f"{rec.contexts[0].listing_tokens:,}"}
    # servers named is a count: a tick at every whole number up to the top point (all 9 named), which has its own
    (chart,) = [json.loads(c.proto.spec) for c in at.get("plotly_chart") if "tuning_frontier" in c.proto.id]
    yaxis = chart["layout"]["yaxis"]
    top = max(p.servers_named for p in points)
    assert (yaxis["tickmode"], yaxis["tick0"], yaxis["dtick"]) == ("linear", 0, 1) and top == 9
    assert yaxis["range"][0] == 0 and top < yaxis["range"][1] < top + 1
    # at 1M the full listing is on the frontier too; with sessions the y axis can be the called tools
    at.multiselect(key="tuning_session_samples").set_value(["state.db"]).run()
    at.selectbox(key="tuning_frontier_length").set_value(1).run()
    at.toggle(key="tuning_frontier_calls").set_value(True).run()
    assert not at.exception
    loaded = load_sessions([SAMPLES.parent / "sample_sessions" / "state.db"])
    called, _ = called_tools(loaded.sessions, ins, config)
    points = frontier(ladder, 1_000_000, called)
    rows = literal_tables(at)["tuning_frontier_table"].to_dict("records")
    assert [r["called tools listed by name"] for r in rows] == [str(p.called_listed) for p in points]
    assert points[-1].listing_form == "full" and points[-1].called_listed == len({c.tool for c in called})
    chart = at.get("plotly_chart")[-1].proto.spec
    assert '"called tools listed by name"' in chart and '"recommended"' in chart and '"sidebar"' in chart


@needs_samples
def test_tuning_notes_the_reference_decides_with_chars4():
    at = open_page("toolsearch/ui/tuning.py", {"tok": "o200k_base"})
    assert any(i.value.startswith("Planning tokenizer o200k_base: the reference harness decides whether a listing "
                                  "fits with chars4") for i in at.info)
    at = open_page("toolsearch/ui/tuning.py", {})
    assert not any("decides whether a listing fits" in i.value for i in at.info)


@needs_samples
def test_tuning_heatmap_grid_and_facts_match_engine():
    query = {"ctx": "128K", "pct": "3.0", "cap": "2500"}
    at = open_page("toolsearch/ui/tuning.py", query)
    config = config_for(query)
    ladder = listing_ladder(inspector().planner, config)
    grid = form_grid(ladder, config)
    at.session_state["tuning_grid_open"] = True  # "The grid as a table" is drawn when opened
    at.run()
    # the table under the heatmap (after the multi-length table)
    table = literal_tables(at)["tuning_grid"]
    assert list(table["form"]) == [p.short_label for p in grid]  # "summary", never "groups"; "mixed 8/9"
    assert list(table["budget (tokens)"]) == [f"{p.budget:,}" for p in grid]
    assert list(table["listing (tokens)"]) == [f"{p.listing_tokens:,}" for p in grid]
    assert list(table["threshold_pct (%)"]) == [f"{p.threshold_pct:g}" for p in grid]  # 5, 4.7: as threshold_value
    # the heat table itself: one cell per grid point, rows by threshold_pct (largest on top), each
    # naming its form on the form's color, with the engine's budget and listing size
    cells = heat_cells(at, "tuning_heatmap")
    pcts = sorted({p.threshold_pct for p in grid}, reverse=True)
    contexts = sorted({p.context_length for p in grid})
    by_cell = {(p.threshold_pct, p.context_length): p for p in grid}
    expected = [by_cell[(pct, c)] for pct in pcts for c in contexts]
    assert [c["data-form"] for c in cells] == [p.listing_form for p in expected]
    assert [c["text"] for c in cells] == [p.short_label if p.listing_form == "mixed" else p.listing_form for p in expected]
    assert any(c["text"].startswith("mixed ") for c in cells)  # counts, never "mixed" alone
    assert [int(c["data-budget"]) for c in cells] == [p.budget for p in expected]
    assert [int(c["data-listing-tokens"]) for c in cells] == [p.listing_tokens for p in expected]
    assert all(f"background:{STATE_COLORS[c['data-form']]}" in c["style"] for c in cells)
    (sidebar,) = [c for c in cells if c.get("aria-current") == "true"]  # the sidebar setting, outlined
    assert (int(sidebar["data-context-length"]), float(sidebar["data-y"])) == (128_000, 3.0)
    assert "the sidebar setting" in sidebar["title"] and f"budget {by_cell[(3.0, 128_000)].budget:,} tokens" in sidebar["title"]
    assert not at.get("plotly_chart")  # only the open tab is drawn, and it is not a chart
    # beside it: context length × listing_max_tokens at the sidebar's threshold_pct; the sidebar's
    # cap (2,500) is not a grid value, so it gets its own row
    at.session_state["tuning_chart"] = "Over listing_max_tokens"
    at.run()
    assert not at.exception, at.exception
    caps_shown = sorted({*HEATMAP_LISTING_MAX_TOKENS, 2500}, reverse=True)
    caps = form_grid(ladder, config, HEATMAP_CONTEXT_LENGTHS, [3.0], caps_shown)
    by_cell = {(p.listing_max_tokens, p.context_length): p for p in caps}
    cells = heat_cells(at, "tuning_heatmap_cap")
    assert [c["data-form"] for c in cells] == [by_cell[(cap, c)].listing_form for cap in caps_shown for c in contexts]
    assert len({c["data-form"] for c in cells}) > 1  # not one solid color where the cap binds
    (sidebar,) = [c for c in cells if c.get("aria-current") == "true"]
    assert (int(sidebar["data-context-length"]), int(sidebar["data-y"])) == (128_000, 2500)
    assert not heat_cells(at, "tuning_heatmap")  # the closed tab is not drawn
    # the sentences under the metrics
    tier1 = recommend(ladder, config, 128_000, "mixed")
    text = "\n".join(m.value for m in at.markdown)
    if tier1.context_length_below is not None:
        assert f"tier 2 up to a context length of **{tier1.context_length_below:,} tokens**" in text
    names = recommend(ladder, config, 128_000, "names")
    if names.context_length_from is not None:
        assert f"from a context length of **{names.context_length_from:,} tokens**" in text


@needs_samples
def test_tuning_listing_off_and_disabled():
    at = open_page("toolsearch/ui/tuning.py", {"listing": "off"})
    assert any("listing: off" in i.value for i in at.info)
    assert any(e.value.startswith("Not reachable at every listed context length: listing is off") for e in at.error)
    at = open_page("toolsearch/ui/tuning.py", {"enabled": "off", "cap": "3000"})
    assert any("tier 0" in i.value for i in at.info)
    block = yaml.safe_load(at.code[0].value)["tools"]["tool_search"]
    assert block["enabled"] == "off" and {"threshold_pct", "listing_max_tokens"} <= set(block)
    # every schema is sent, so the goal holds with the current settings (as check judges it): no
    # "not reachable", no server "not named", and 100 % / 60,000 is not offered
    assert (block["threshold_pct"], block["listing_max_tokens"]) == (5.0, 3000)
    # every schema up front (82,998 tokens) fits no request at 32K, whatever the settings: said, and left out
    errors = [e.value.replace("\\", "") for e in at.error]
    assert len(errors) == 1 and errors[0].startswith(
        "At 32K no setting fits: the tools array alone (82,998 tokens, chars4) is larger than the context length "
        "(32K) with nothing listed"), errors
    assert not any("Not named" in m.value for m in at.markdown)
    assert metric(at, "Budget needed at every length") == "0 tokens"


# --- Report page -----------------------------------------------------------------------------------------

@needs_samples
def test_report_page_builds_the_report():
    at = open_page("toolsearch/ui/report.py", {"ctx": "32K"})
    assert not at.metric  # nothing built yet
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    html_text = at.session_state["report_html"]
    size = len(html_text.encode("utf-8"))
    assert metric(at, "Report size") == f"{size / 1024:,.0f} KiB"
    # The page shows the report rendered (a frame of the very document), not its source, in a frame
    # sandboxed without allow-same-origin (Streamlit's own st.iframe allows it): the report's scripts
    # run in an opaque origin. The browser side: tests/test_browser_report_preview.py.
    assert not at.get("iframe")
    [frame] = at.get("bidi_component")
    settings, document = frame.proto.bytes.split(b"\n", 1)
    assert document.decode("utf-8") == html_text
    assert json.loads(settings) == {"sandbox": "allow-scripts allow-downloads", "height": 900,  # px, as before
                                    "title": "The report as it renders"}
    assert SANDBOX == "allow-scripts allow-downloads"
    assert not at.code
    plan = inspector().plan(parse_config({}), 32_000)
    assert f"<pre>{esc(plan.tool_search_description)}</pre>" in html_text
    assert f"<b>Budget = min(cap, percentage leg) = {plan.budget:,} tokens</b>" in html_text
    assert html_text.count("<script") >= 2 and not EXTERNAL_SRC.search(html_text)
    at.run()  # same settings: the report is current, no "rebuild" warning
    assert not at.warning and at.session_state["report_html"] == html_text


@needs_samples
def test_report_carries_date_version_fingerprint_and_every_result():
    from toolsearch import __version__
    from toolsearch.analysis.evaluation import DEFAULT_VARIANTS, evaluate, load_queries
    from toolsearch.analysis.lint import lint
    from toolsearch.live.client import catalog_key

    at = open_page("toolsearch/ui/report.py", {"ctx": "32K"})
    assert at.selectbox(key="report_query_file").value == "team-workspace"  # the catalog's own query file
    at.text_area(key="report_queries").set_value("create issue\nzebra")
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    html_text = at.session_state["report_html"]
    ins, config = inspector(), parse_config({})
    about = html_text[html_text.index("<h2>About this report</h2>"):html_text.index("<h2>Catalog</h2>")]
    assert re.search(r"<dt>generated</dt><dd>\d{4}-\d\d-\d\d \d\d:\d\d UTC</dd>", about)
    assert f"<dt>toolsearch version</dt><dd>{esc(__version__)}</dd>" in about
    assert f"<dt>catalog fingerprint</dt><dd>{catalog_key(ins.catalog)}</dd>" in about
    # planned at the Tuning page's shortest length (its defaults), which the row says
    assert "context length 32K (the shortest of " in about
    assert "· threshold_pct 5%, listing_max_tokens 4,000" in about
    # Search: one row per query with its matches, and the exact response.
    response = ins.bridge(config).tool_search({"queries": ["create issue", "zebra"]})
    search = html_text[html_text.index("<h2>Search (tool_search responses)</h2>"):html_text.index("<h2>Search quality</h2>")]
    assert f"<td>{esc(', '.join(response['results'][0]['matches']))}</td>" in search
    assert "<td>no matches</td>" in search
    # Search quality, lint: the engine's numbers.
    ev = evaluate(ins, load_queries(SAMPLES / "queries" / "team-workspace.yaml"), DEFAULT_VARIANTS, config)
    quality = html_text[html_text.index("<h2>Search quality</h2>"):html_text.index("<h2>Lint</h2>")]
    for variant in ev.variants:
        assert f"<td>{esc(variant.name)}</td>" in quality
    assert f'<td class="num">{ev.variants[0].metrics.mrr:.3f}</td>' in quality
    # In sample, as eval says it: the registered parameters, scored on the query file itself.
    assert ("<p>in sample: registered parameters, nothing tuned (toolsearch eval --tune FILE or --folds K gives "
            "figures that hold out of sample).</p>") in quality
    counts = lint(ins, config).counts()
    lint_html = html_text[html_text.index("<h2>Lint</h2>"):html_text.index("<h2>Disclosure strategies</h2>")]
    assert (f"{counts['error']:,} errors · {counts['warning']:,} warnings · {counts['info']:,} info notes"
            in lint_html)
    # Strategies are computed with the Strategies page's defaults, or taken from that page once it ran.
    assert "the Strategies page&#x27;s defaults" in html_text[html_text.index("<h2>Disclosure strategies</h2>"):]
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/report.py").run()
    at.button(key="build_report").click().run()
    html_text = at.session_state["report_html"]
    strategies = html_text[html_text.index("<h2>Disclosure strategies</h2>"):]
    assert "Not computed" not in strategies[:300] and strategies.count("<tr>") == 7  # header + six strategies
    assert "the Strategies page&#x27;s defaults" not in strategies[:300]  # the page's own results now
    # The form heat map appears once (as the colored table), not a second time as a chart.
    assert html_text.count("<h2>Listing form over context length") == 1 and "Listing form heatmap" not in html_text
    # Filled cells use black or white text, whichever reaches WCAG AA on that fill.
    for bg, fg in re.findall(r"background:(#[0-9A-Fa-f]{6});color:(#[0-9a-f]{6})", html_text):
        assert contrast_ratio(fg, bg) >= 4.5, (fg, bg)


# --- build_report ------------------------------------------------------------------------------------------

HOSTILE = {
    "name": "Hostile <i>catalog</i>",
    "servers": [
        {"name": "evil<b>srv", "tools": [
            {"name": "inject", "description": "<script>alert('x')</script> reads [a link](http://evil.example) & more.",
             "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "<img src=x>"}}}},
            {"name": "plain", "description": "A plain tool.", "inputSchema": {"type": "object"}}]},
        {"name": "docs", "tools": [{"name": "search_docs", "description": "Search the docs.",
                                    "inputSchema": {"type": "object"}}]},
    ],
}


def hostile_inspector(tmp_path: Path, naming: str = "as-is") -> Inspector:
    path = tmp_path / "hostile.yaml"
    path.write_text(yaml.safe_dump(HOSTILE, sort_keys=False), encoding="utf-8")
    return Inspector.from_files([path], naming)


def report_with_figures(ins: Inspector, config, context_length) -> str:
    plan = ins.plan(config, context_length)
    figures = charts.figures_html({
        "costs": charts.costs_figure(plan),
        "sweep": charts.sweep_figure(form_grid(listing_ladder(ins.planner, config), config),
                                     current=(context_length, config.threshold_pct)),
    })
    return build_report(ins, config, context_length, figures=figures, source_label="<test>",
                        state_colors=STATE_COLORS)


def assert_safe(html_text: str) -> None:
    assert "<script>alert" not in html_text
    assert "<img src=x" not in html_text
    assert not EXTERNAL_SRC.search(html_text)
    assert "<b>srv" not in html_text


@pytest.mark.parametrize("naming", ["as-is", "prefixed"])
def test_build_report_escapes_catalog_text(tmp_path, naming):
    ins = hostile_inspector(tmp_path, naming)
    config = parse_config({})
    html_text = report_with_figures(ins, config, 200_000)
    assert_safe(html_text)
    plan = ins.plan(config, 200_000)
    assert plan.listing_form == "full" and "<script>alert" in plan.tool_search_description
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html_text   # shown literally
    assert "<h1>toolsearch report: Hostile &lt;i&gt;catalog&lt;/i&gt;</h1>" in html_text
    servers = html_text[html_text.index("<h2>Servers</h2>"):html_text.index("<h2>Degradation steps</h2>")]
    for server in plan.servers:
        assert f"<td>{esc(server.name)}</td>" in servers
    assert "evil&lt;b&gt;srv" in servers


@pytest.mark.skipif(not HARD_CASES.exists(), reason="sample_catalogs/hard-cases.yaml is not generated yet")
@pytest.mark.parametrize("context_length", [200_000, 8_000])
def test_build_report_on_hard_cases(context_length):
    ins = inspector("hard-cases")
    config = parse_config({})
    html_text = report_with_figures(ins, config, context_length)
    assert "<script>alert" not in html_text and not EXTERNAL_SRC.search(html_text)
    plan = ins.plan(config, context_length)
    if "<script>alert" in (plan.tool_search_description or ""):
        assert "&lt;script&gt;alert" in html_text
    servers = html_text[html_text.index("<h2>Servers</h2>"):html_text.index("<h2>Degradation steps</h2>")]
    for server in plan.servers:
        assert f"<td>{esc(server.name)}</td>" in servers


def test_build_report_content_is_the_engines_and_deterministic(tmp_path):
    ins = hostile_inspector(tmp_path)
    config = parse_config({"threshold_pct": 1.0, "listing_max_tokens": 300})
    first = build_report(ins, config, 8_000)
    assert first == build_report(ins, config, 8_000)               # no timestamps, no random ids
    plan = ins.plan(config, 8_000)
    assert f"int(8,000 × 1 / 100) = {plan.pct_leg:,} tokens" in first
    assert f"<b>Budget = min(cap, percentage leg) = {plan.budget:,} tokens</b>" in first
    assert f"Form: {esc(plan_counts(plan).label)}</span>" in first
    assert plan_counts(plan).label.startswith(plan.listing_form + " · ")
    assert esc(dump_config_block(config)) in first
    for goal, words in GOALS:
        assert f"<td>{esc(words)}</td>" in first
    # the form grid: one cell per (threshold_pct, context length), each naming its form
    grid = form_grid(listing_ladder(ins.planner, config), config)
    assert first.count('title="budget ') == len(grid)
    assert "<script" not in first                                   # no figures: no script at all


def test_report_says_when_the_tools_tool_search_block_is_empty(tmp_path):
    """At the reference defaults the block is ``{}``: the report says that no key differs and which
    budget settings that means, so an empty block does not read as settings missing."""
    ins = hostile_inspector(tmp_path)
    default = build_report(ins, parse_config({}), 200_000)
    assert ("<p>The <code>tools.tool_search</code> block (only the keys that differ from the reference defaults; "
            "none do here: threshold_pct 5%, listing_max_tokens 4,000 are the defaults):</p>") in default
    assert esc(dump_config_block(parse_config({}))) in default and "tool_search: {}" in default
    changed = build_report(ins, parse_config({"threshold_pct": 1.0}), 200_000)
    assert ("<p>The <code>tools.tool_search</code> block (only the keys that differ from the reference "
            "defaults):</p>") in changed


def test_figures_html_inlines_plotly_once(tmp_path):
    ins = hostile_inspector(tmp_path)
    plan = ins.plan(parse_config({}), 200_000)
    parts = charts.figures_html({"a": charts.costs_figure(plan), "b": charts.costs_figure(plan)})
    assert len(parts["a"]) > 1_000_000 > 100_000 > len(parts["b"])  # plotly.js only in the first
    assert not any(EXTERNAL_SRC.search(p) for p in parts.values())
    assert all("<script" in p for p in parts.values())


def test_report_verdict_when_tool_search_costs_more():
    from toolsearch.engine.catalog import Catalog, Server, Tool

    tiny = Inspector(Catalog(name="tiny", servers=(Server(name="one", tools=(Tool(name="ping", description="Ping."),)),)),
                     "as-is")
    config = parse_config({})
    plan = tiny.plan(config, 200_000)
    extra = plan.tools_tokens - plan.eager_tokens
    assert extra > 0
    html = build_report(tiny, config, 200_000)
    assert f"tool search adds {extra:,} tokens per request here; consider enabled: off" in html
    big = build_report(inspector(), config, 200_000)
    assert "tool search adds" not in big


@needs_samples
def test_a_grid_of_one_form_says_why():
    """On cloudflare-flat every threshold_pct cell is "groups" (no budget up to the cap reaches a
    better form): the page says so, with the largest budget and what the better forms need, naming
    the form with the word the grid's cells show (summary), not the JSON value."""
    at = open_page("toolsearch/ui/tuning.py", {"catalog": "cloudflare-flat"})
    config = config_for({})
    ladder = listing_ladder(inspector("cloudflare-flat").planner, config)
    cells = heat_cells(at, "tuning_heatmap")
    assert {c["data-form"] for c in cells} == {"groups"}
    top = max(int(c["data-budget"]) for c in cells)
    sizes = ladder.sizes()
    (note,) = [i.value for i in at.info if i.value.startswith("Every cell gives the form")]
    assert all(c["text"].startswith("summary") for c in cells), {c["text"] for c in cells}
    assert note == (f"Every cell gives the form “summary”: the largest budget in this grid is {top:,} tokens "
                    f"(listing_max_tokens caps it), and a better form needs more (the names listing "
                    f"{sizes['names']:,} tokens, the full listing {sizes['full']:,} tokens). The “Over "
                    "listing_max_tokens” tab shows what a larger cap changes.")
    default = open_page("toolsearch/ui/tuning.py", {})
    assert not [i for i in default.info if i.value.startswith("Every cell gives the form")]


@needs_samples
def test_report_page_carries_only_the_goal_the_tuning_page_shows():
    """The Report page carries the Tuning page's goal while that page shows a recommendation for it:
    once its context lengths are unreadable (the Tuning page shows no block), the report does not
    carry the goal asked before. With sample sessions, the report's line under the table says how
    many were read, as ``recommend --sessions`` does."""
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,1m", "goal": "names"})
    at.multiselect(key="tuning_session_samples").set_value(["state.db"]).run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/report.py").run()
    assert any("every server at names or better; context lengths 32K, 1M, with the sessions of state" in c.value
               for c in at.caption), [c.value for c in at.caption]
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    assert ('<p class="muted">sessions: 7 sessions read; called_listed: of the deferred tools the sessions called'
            in at.session_state["report_html"])
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.text_input(key="tuning_contexts").set_value("32k, lots").run()
    assert not at.code  # no block on the Tuning page
    at.switch_page("toolsearch/ui/report.py").run()
    assert any("not included: fix the context lengths on the Tuning page" in c.value for c in at.caption), \
        [c.value for c in at.caption]
    at.button(key="build_report").click().run()
    html_text = at.session_state["report_html"]
    section = html_text[html_text.index("<h2>Recommended settings across context lengths</h2>"):
                        html_text.index("<h2>Listing budget</h2>")]
    assert "Not computed" in section and "threshold_pct:" not in section


def report_section(html_text: str) -> str:
    """The report's "Recommended settings across context lengths" section (up to the next heading: it
    comes first when the report carries a recommendation)."""
    start = html_text.index("<h2>Recommended settings across context lengths</h2>")
    return html_text[start:html_text.index("<h2>", start + 1)]


def carried_caption(at: AppTest) -> str:
    """The Report page's line on the recommendation it carries, Markdown escapes removed."""
    found = [c.value.replace("\\", "") for c in at.caption
             if c.value.startswith("Recommended settings across context lengths")]
    assert len(found) == 1, [c.value for c in at.caption]
    return found[0]


def test_a_link_with_a_tuning_goal_opened_on_the_report_page_carries_it():
    """A link to the Report page that carries the Tuning question: the page asks it of the link's
    catalog itself (no visit to the Tuning page needed), the built report carries the same setting
    as the Tuning page shows, and a server the catalog lacks is named as left out. Without a goal in
    the link and before the Tuning page ran, the report carries the Tuning page's default question
    (its default context lengths, goal and headroom) and the same numbers that page shows for it."""
    query = {"lengths": "32k,200k", "goal": "full", "except": "github,nope"}
    at = open_page("toolsearch/ui/report.py", query)
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(inspector().planner, config), config, [32_000, 200_000], "full",
                                 except_servers=["github"])
    # the two numbers to ship are on the page before any report is built, as the Tuning page writes them
    assert carried_caption(at) == (
        f"Recommended settings across context lengths: threshold_pct {rec.threshold_pct:g}%, listing_max_tokens "
        f"{rec.listing_max_tokens:,}, for the Tuning page's goal (every tool with its short description "
        "(form full), except github (may collapse); context lengths 32K, 200K); the report sets them beside the "
        "sidebar's current settings; change the context lengths and goal there. May collapse: “nope” is not "
        "a server of this catalog; left out.")
    at.button(key="build_report").click().run()
    assert not at.exception, at.exception
    section = report_section(at.session_state["report_html"])
    assert f"listing_max_tokens: {rec.listing_max_tokens}" in section, section[:2000]
    tuning = open_page("toolsearch/ui/tuning.py", query)  # the same number on the Tuning page
    assert metric(tuning, "Recommended listing_max_tokens") == f"{rec.listing_max_tokens:,} tokens"
    plain = open_page("toolsearch/ui/report.py")
    assert carried_caption(plain) == (
        "Recommended settings across context lengths: threshold_pct 4.7%, listing_max_tokens 1,473, for the "
        "Tuning page's goal (every server at names or better; context lengths 32K, 128K, 200K, 1M); the report sets "
        "them beside the sidebar's current settings; change the context lengths and goal there.")
    for page in (plain, at):  # where the question is changed, one click away
        assert [(link.label, link.proto.page.rsplit("/", 1)[-1]) for link in page.get("page_link")] == [
            ("Context lengths and goal: Tuning", "tuning")]
    plain.button(key="build_report").click().run()
    assert not plain.exception, plain.exception
    section = report_section(plain.session_state["report_html"])
    assert "Not computed" not in section
    # the report leads with it, as toolsearch report does
    assert re.findall(r"<h2>([^<]*)</h2>", plain.session_state["report_html"])[0] == (
        "Recommended settings across context lengths")
    defaults = recommend_for_contexts(listing_ladder(inspector().planner, config), config,
                                      [32_000, 128_000, 200_000, 1_000_000], "names")
    assert f"listing_max_tokens: {defaults.listing_max_tokens}" in section, section[:2000]
    plain.switch_page("toolsearch/ui/tuning.py").run()  # the Tuning page opened afterwards: the same numbers
    assert metric(plain, "Recommended listing_max_tokens") == f"{defaults.listing_max_tokens:,} tokens" == "1,473 tokens"
    assert metric(plain, "Recommended threshold_pct") == f"{defaults.threshold_pct:g}%" == "4.7%"
    # a link whose question cannot be asked (a server in both lists): said, with the reason
    blocked = open_page("toolsearch/ui/report.py", {"lengths": "32k", "except": "slack", "keep": "slack"})
    assert carried_caption(blocked) == (
        "Recommended settings across context lengths: not included: fix the servers in both lists on the Tuning page "
        "to include them (its goal cannot be asked: slack: a server cannot both collapse and stay named; remove it "
        "from one list.)")


def test_report_page_asks_the_tuning_goal_again_after_a_naming_change():
    """The Tuning page's goal stays with the Report page when the wording profile or the tool naming
    changes: the question is asked again of the new settings, its recorded sessions matched to the new
    tool names, and the report carries what the Tuning page shows for the same settings."""
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,1m", "goal": "names"})
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/report.py").run()
    carried = "every server at names or better; context lengths 32K, 1M"
    assert carried in carried_caption(at)
    at.session_state["naming"] = "as-is"
    at.run()
    assert not at.exception, at.exception
    assert carried in carried_caption(at)
    at.button(key="build_report").click().run()
    html_text = at.session_state["report_html"]
    # built with as-is names (the search-quality section may name the query file's prefixed names it cannot find)
    quality = re.compile(r"<h2>Search quality</h2>.*?<h2>", re.S)
    assert "mcp__github__" not in quality.sub("", html_text) and "create_issue" in html_text
    rec = recommend_for_contexts(listing_ladder(inspector(naming="as-is").planner, parse_config({}), "chars4"),
                                 parse_config({}), [32_000, 1_000_000], "names")
    section = report_section(html_text)
    assert f"threshold_pct: {rec.threshold_pct:g}" in section or f"threshold_pct: {rec.threshold_pct}" in section
    # with sessions matched by tool name: a naming change matches them to the new names
    at.switch_page("toolsearch/ui/tuning.py").run()
    at.multiselect(key="tuning_session_samples").set_value(["state.db"]).run()
    at.switch_page("toolsearch/ui/report.py").run()
    assert "with the sessions of state" in carried_caption(at)
    at.session_state["naming"] = "prefixed"
    at.run()
    assert "with the sessions of state" in carried_caption(at)
    at.button(key="build_report").click().run()
    section = report_section(at.session_state["report_html"])
    at.switch_page("toolsearch/ui/tuning.py").run()  # the Tuning page with the same naming and sessions
    named = list(literal_tables(at)["tuning_multi_table"]["called tools listed by name"])
    assert named and not any(value.startswith("0/") for value in named), named
    # the report's table writes the same figures the same way, called_listed/called_total, as recommend --sessions does
    assert all(value in section for value in named), (named, section[:3000])


def test_report_page_asks_the_tuning_goal_of_another_scope():
    """The Tuning page's goal follows the session scope: after picking another scope the Report page
    asks it of that scope and carries the setting the Tuning page shows there."""
    from toolsearch.engine.scopes import parse_scope_arg

    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "goal": "names", "headroom": "10"})
    whole = metric(at, "Recommended listing_max_tokens")
    at.switch_page("toolsearch/ui/report.py").run()
    carried = "every server at names or better; context lengths 32K, 200K, 1M, 10% headroom"
    assert carried in carried_caption(at)
    at.session_state["scopes"] = [parse_scope_arg("support=slack,linear,notion")]
    at.run()  # the scope is defined (an option of the picker), then picked
    at.selectbox(key="scope_choice").set_value("support").run()
    assert not at.exception, at.exception
    assert carried in carried_caption(at)
    at.button(key="build_report").click().run()
    section = report_section(at.session_state["report_html"])
    at.switch_page("toolsearch/ui/tuning.py").run()
    scoped = metric(at, "Recommended listing_max_tokens")
    assert scoped != whole, (scoped, whole)  # three servers need less than nine
    assert f"listing_max_tokens: {scoped.removesuffix(' tokens').replace(',', '')}" in section, section[:2000]


def test_the_tuning_page_says_where_the_listing_takes_a_large_share_of_the_context():
    """The Tuning page warns with the line ``recommend`` prints (one function for both)."""
    from toolsearch.analysis.recommend import large_share_lines

    at = open_page("toolsearch/ui/tuning.py", {"lengths": "8k,1m", "goal": "full"})
    config = parse_config({})
    rec = recommend_for_contexts(listing_ladder(inspector().planner, config), config, [8_000, 1_000_000], "full")
    lines = large_share_lines(rec, "app")  # the page names its own field where recommend names the option
    assert len(lines) == 1 and lines[0].startswith("large share at 8K: the listing takes ")
    assert lines[0].endswith("(the Reserve (%) field), leaves it more room")
    shown = [w.value.replace("\\", "") for w in at.warning]
    assert lines[0][0].upper() + lines[0][1:] + "." in shown, shown


def test_the_budget_metric_says_when_it_includes_headroom():
    """With 10 % headroom the budget needed is above the goal's own need (the listing): the metric
    says "with 10% headroom", as ``toolsearch recommend`` does; with none it adds nothing."""
    lengths = [32_000, 200_000, 1_000_000]
    config = parse_config({})
    ladder = listing_ladder(inspector().planner, config)
    rec = recommend_for_contexts(ladder, config, lengths, "names", headroom_pct=10)
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "goal": "names", "headroom": "10"})
    budget = next(m for m in at.metric if m.label == "Budget needed at every length")
    assert budget.value == f"{rec.budget_needed:,} tokens" == "1,621 tokens"
    assert rec.worst.listing_tokens < rec.budget_needed  # the goal alone needs less: the figure needs its qualifier
    assert budget.proto.delta == "with 10% headroom"
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "goal": "names"})
    budget = next(m for m in at.metric if m.label == "Budget needed at every length")
    assert budget.value == "1,473 tokens" and not budget.proto.delta


def test_the_largest_budget_metric_says_when_it_includes_headroom():
    """With a goal per length the metric is "Largest budget needed"; with headroom it says so, as
    ``toolsearch recommend`` prints "budget needed: ... (with 10% headroom)"."""
    lengths = [32_000, 200_000, 1_000_000]
    config = parse_config({})
    ladder = listing_ladder(inspector().planner, config)
    rec = recommend_for_contexts(ladder, config, lengths, "names", headroom_pct=10,
                                 length_goals={1_000_000: "full"})
    assert not rec.one_budget and rec.reached
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "goal": "names", "goals": "1m=full",
                                               "headroom": "10"})
    budget = next(m for m in at.metric if m.label == "Largest budget needed")
    assert budget.value == f"{rec.budget_needed:,} tokens"
    assert budget.proto.delta == "with 10% headroom"
    assert "(with 10% headroom)" in budget.help
    at = open_page("toolsearch/ui/tuning.py", {"lengths": "32k,200k,1m", "goal": "names", "goals": "1m=full"})
    budget = next(m for m in at.metric if m.label == "Largest budget needed")
    assert not budget.proto.delta


@needs_samples
def test_a_goal_no_setting_reaches_says_why_not_two_guesses():
    """Under the grid, a goal that no listing_max_tokens reaches said "never (the listing is larger
    than 60,000 tokens, or listing is off)", two reasons where the page knows which one holds."""
    at = open_page("toolsearch/ui/tuning.py", {"with": "cloudflare-flat"})
    full = listing_ladder(inspector_of([SAMPLES / "team-workspace.yaml", SAMPLES / "cloudflare-flat.yaml"]).planner,
                          parse_config({})).sizes()["full"]
    assert full > 60_000
    text = "\n".join(m.value for m in at.markdown)
    assert (f"- every tool with its short description (form full): never (the full listing takes {full:,} tokens, "
            "more than the largest listing_max_tokens, 60,000)") in text
    assert "or listing is off" not in text
    off = "\n".join(m.value for m in open_page("toolsearch/ui/tuning.py", {"listing": "off"}).markdown)
    assert "- every server at names or better: never (listing is off)" in off

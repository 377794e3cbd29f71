"""The Compare view (``toolsearch/ui/compare.py``, first section of the Compare & collapse page),
driven with AppTest the way a user does: each of side B's settings is changed in turn and what the
page shows is checked against the library, computed here on its own (a fresh inspector, the
library's plans, :func:`toolsearch.analysis.cachediff.compare`)."""

from __future__ import annotations

import json

import html
import re
from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest

from conftest import inspector_of, literal_tables
from toolsearch.analysis import quantities as Q
from toolsearch.analysis.cachediff import Side, compare
from toolsearch.analysis.palette import STATE_COLORS, cell_style
from toolsearch.analysis.sweep import plan_counts
from toolsearch.engine.catalog import load_text
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.invisible import reveal_line
from toolsearch.engine.scopes import parse_scope_arg

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
A_COL, B_COL = "A (sidebar)", "B"


def _open(query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update(query or {})
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/cache_diff.py").run()
    assert not at.exception, at.exception
    return at


def _rows(at, key: str) -> dict[str, tuple[str, str, str]]:
    table = literal_tables(at)[key]
    return {r[""]: (r[A_COL], r[B_COL], r["differs"]) for r in table.to_dict("records")}


def _check(at, a: Side, b: Side, display: str = "chars4") -> None:
    """The page shows, for sides ``a`` and ``b``, what the library computes."""
    assert not at.exception, at.exception
    pa = a.inspector.plan(a.config, a.context_length, a.tokenizer, display)
    pb = b.inspector.plan(b.config, b.context_length, b.tokenizer, display)
    diff = compare(a, b, display)
    outcome = _rows(at, "cmp_outcome")
    expected = {
        "budget (tokens, planning tokenizer)": (f"{Q.budget(pa):,}", f"{Q.budget(pb):,}"),
        "tier": (str(pa.tier), str(pb.tier)),
        "listing form": (plan_counts(pa).label, plan_counts(pb).label),
        "listing (tokens, planning tokenizer)": (f"{Q.listing(pa):,}", f"{Q.listing(pb):,}"),
        "deferred tools": (f"{Q.deferred_tools(pa):,}", f"{Q.deferred_tools(pb):,}"),
        f"tools array with tool search (tokens, {display})": (f"{Q.tools_array(pa):,}", f"{Q.tools_array(pb):,}"),
    }
    for fact, values in expected.items():
        assert outcome[fact][:2] == values, fact
    for table in ("cmp_outcome", "cmp_settings"):  # the marker is set exactly where the sides differ
        for fact, (x, y, mark) in _rows(at, table).items():
            assert (mark == "●") == (x != y), (table, fact, x, y, mark)
    badges = "\n".join(m.value for m in at.markdown)
    assert ("Prompt cache: HIT" in badges) == diff.cache_hit and ("Prompt cache: MISS" in badges) == (not diff.cache_hit)
    reusable = {m.label: m.value for m in at.metric}
    assert reusable[f"Reusable prefix (tokens, {diff.reusable.tokenizer})"] == f"{diff.reusable.tokens:,}"
    servers = literal_tables(at)["cmp_servers"]
    shown = dict(zip(servers["server"], zip(servers[A_COL], servers[B_COL])))
    states_a, states_b = {s.name: s.state for s in pa.servers}, {s.name: s.state for s in pb.servers}
    assert shown == {name: (states_a.get(name, "—"), states_b.get(name, "—")) for name in {**states_a, **states_b}}
    causes = "\n".join(reveal_line(f"• {c.kind.replace('_', ' ')}: {c.message}") for c in diff.causes)
    if causes:
        assert causes in [t.value for t in at.text]


def _team(naming: str = "prefixed") -> Inspector:
    return inspector_of([TEAM], naming)


def _side(inspector: Inspector, label: str, context_length: int | None = 200_000, tokenizer: str = "chars4",
          **config) -> Side:
    return Side(inspector, parse_config(config), context_length, tokenizer, label, "team-workspace")


def test_side_b_starts_equal_and_follows_the_sidebar_until_changed():
    at = _open()
    team = _team()
    _check(at, _side(team, "A"), _side(team, "B"))
    assert "Prompt cache: HIT" in "\n".join(m.value for m in at.markdown)
    assert all(mark == "" for *_, mark in _rows(at, "cmp_settings").values())
    at.sidebar.selectbox(key="ctx_choice").set_value("8K").run()  # B has not been changed: it follows
    assert at.selectbox(key="cmp_b_ctx").value == "8K"
    _check(at, _side(team, "A", 8_000), _side(team, "B", 8_000))
    at.selectbox(key="cmp_b_ctx").set_value("1M").run()  # changed on B: it stays
    at.sidebar.selectbox(key="ctx_choice").set_value("32K").run()
    assert at.selectbox(key="cmp_b_ctx").value == "1M"
    _check(at, _side(team, "A", 32_000), _side(team, "B", 1_000_000))
    at.button(key="cmp_b_reset").click().run()  # Reset B to A
    assert at.selectbox(key="cmp_b_ctx").value == "32K"
    _check(at, _side(team, "A", 32_000), _side(team, "B", 32_000))


#: (B's widget key, the value set, side B's settings for the library) — every setting B can vary.
B_CHANGES = [
    ("cmp_b_ctx", "8K", {"context_length": 8_000}),
    ("cmp_b_ctx", "unknown", {"context_length": None}),
    ("cmp_b_pct", 1.0, {"threshold_pct": 1.0}),
    ("cmp_b_cap", 1_000, {"listing_max_tokens": 1_000}),
    ("cmp_b_enabled", "off", {"enabled": "off"}),
    ("cmp_b_listing", "off", {"listing": "off"}),
    ("cmp_b_tokenizer", "o200k_base", {"tokenizer": "o200k_base"}),
    ("cmp_b_naming", "as-is", {"naming": "as-is"}),
]


@pytest.mark.parametrize("key, value, change", B_CHANGES, ids=[f"{k}={v}" for k, v, _ in B_CHANGES])
def test_each_b_setting_changes_the_comparison_as_the_library_says(key, value, change):
    at = _open()
    widget = at.number_input(key=key) if key in ("cmp_b_pct", "cmp_b_cap") else at.selectbox(key=key)
    widget.set_value(value).run()
    change = dict(change)
    b_inspector = _team(change.pop("naming", "prefixed"))
    b = _side(b_inspector, "B", change.pop("context_length", 200_000), change.pop("tokenizer", "chars4"), **change)
    _check(at, _side(_team(), "A"), b)
    settings = _rows(at, "cmp_settings")
    assert [fact for fact, (*_, mark) in settings.items() if mark] == [{
        "cmp_b_ctx": "context length", "cmp_b_pct": "threshold_pct", "cmp_b_cap": "listing_max_tokens",
        "cmp_b_enabled": "enabled", "cmp_b_listing": "listing", "cmp_b_tokenizer": "planning tokenizer",
        "cmp_b_naming": "tool names"}[key]]


def test_a_custom_context_length_on_b():
    at = _open()
    at.selectbox(key="cmp_b_ctx").set_value("custom").run()
    at.number_input(key="cmp_b_ctx_custom").set_value(20_000).run()
    team = _team()
    _check(at, _side(team, "A"), _side(team, "B", 20_000))
    assert _rows(at, "cmp_settings")["context length"] == ("200K", "20K", "●")


def test_a_session_scope_on_b():
    """A scope picked in the sidebar is A's and (until changed) B's; B can go back to the whole catalog."""
    at = _open({"scope": "support=github,slack"})
    scope = parse_scope_arg("support=github,slack")
    team = _team()
    assert at.selectbox(key="cmp_b_scope").value == "support"
    _check(at, _side(team.scoped(scope), "A"), _side(team.scoped(scope), "B"))
    at.selectbox(key="cmp_b_scope").set_value("Whole catalog").run()
    _check(at, _side(team.scoped(scope), "A"), _side(team, "B"))
    assert _rows(at, "cmp_settings")["session scope"] == ("support", "Whole catalog", "●")
    assert "—" in set(literal_tables(at)["cmp_servers"][A_COL])  # servers outside A's scope


def test_another_catalog_file_on_b(tmp_path):
    """B's catalog uploaded: a newer snapshot of the sidebar's catalog with one more github tool."""
    data = yaml.safe_load(TEAM.read_text(encoding="utf-8"))
    github = next(s for s in data["servers"] if s["name"] == "github")
    github["tools"].append({"name": "merge_queue_status", "description": "Show the merge queue of a repository.",
                            "inputSchema": {"type": "object", "properties": {"repo": {"type": "string"}}}})
    text = yaml.safe_dump(data, sort_keys=False)
    at = _open()
    at.radio(key="cmp_b_source").set_value("Another catalog file (upload)").run()
    assert any("Upload B's catalog file" in i.value for i in at.info)
    at.file_uploader(key="cmp_b_upload").set_value(("tuesday.yaml", text.encode(), "application/x-yaml")).run()
    newer = Inspector(load_text(text, "tuesday.yaml"))
    b = Side(newer, parse_config({}), 200_000, "chars4", "B", "tuesday.yaml")
    _check(at, _side(_team(), "A"), b)
    assert _rows(at, "cmp_settings")["catalog"] == ("team-workspace", "tuesday.yaml", "●")
    causes = next(t.value for t in at.text if t.value.startswith("•"))
    assert "merge_queue_status" in causes
    # A bad file: one clear line, no traceback, and the rest of the page still there
    at.file_uploader(key="cmp_b_upload").set_value(("broken.yaml", b"servers: [", "application/x-yaml")).run()
    assert not at.exception
    assert [e.value.replace("\\", "") for e in at.error] == [
        "broken.yaml: line 1, column 11: not valid YAML or JSON (expected the node content, but found '<stream end>')"]
    assert "cd_collapse_servers" in literal_tables(at)
    # A file with a bad tool: B is compared without it, and the page says so (it said nothing)
    bad = {"servers": [{"name": "docs", "tools": [{"name": "search_docs"}, {"description": "no name"}]}]}
    at.file_uploader(key="cmp_b_upload").set_value(("one-bad.json", json.dumps(bad).encode(), "application/json")).run()
    assert not at.exception
    assert [e.value.replace("\\", "") for e in at.error] == [
        "B's catalog one-bad.json loaded with problems: 1 item skipped. The rest of it is compared."]
    assert literal_tables(at)["cmp_b_problems"]["message"].tolist() == ["expected a non-empty string 'name'; tool skipped"]


def test_the_server_table_colors_states_and_can_show_only_changes():
    at = _open({"ctx": "8K"})
    at.selectbox(key="cmp_b_ctx").set_value("32K").run()
    team = _team()
    pa, pb = team.plan(parse_config({}), 8_000), team.plan(parse_config({}), 32_000)
    changed = [s.name for s in pb.servers if {x.name: x.state for x in pa.servers}[s.name] != s.state]
    assert changed and len(changed) < len(pb.servers)
    assert f"**Servers** · {len(changed)} of {len(pb.servers)} change state" in [m.value for m in at.markdown]
    page = next(h.value for h in at.html if 'data-table="cmp_servers"' in h.value)
    for s in pb.servers:  # B's state in its state color, outlined where it changed
        cell = re.search(r"<tr><td[^>]*>" + re.escape(html.escape(s.name)) + r"</td>.*?(<td[^>]*>[^<]*</td>)</tr>",
                         page).group(1)
        assert html.escape(cell_style(STATE_COLORS[s.state])) in cell
        assert ("outline:3px" in cell) == (s.name in changed), s.name
    at.toggle(key="cmp_only_changed").set_value(True).run()
    assert list(literal_tables(at)["cmp_servers"]["server"]) == changed
    # the listing form row sits on its form's color on both sides
    outcome = next(h.value for h in at.html if 'data-table="cmp_outcome"' in h.value)
    row = re.search(r"<tr><td[^>]*>listing form</td>(.*?)</tr>", outcome).group(1)
    for plan in (pa, pb):
        assert html.escape(cell_style(STATE_COLORS[Q.form_word(plan.listing_form)])) in row


def test_the_descriptions_side_by_side_when_they_differ():
    at = _open()
    assert not any('data-diff="cmp_description_diff"' in h.value for h in at.html)  # identical: no diff
    at.selectbox(key="cmp_b_ctx").set_value("8K").run()
    team = _team()
    pa, pb = team.plan(parse_config({}), 200_000), team.plan(parse_config({}), 8_000)
    diff = next(h.value for h in at.html if 'data-diff="cmp_description_diff"' in h.value)
    assert diff.count("<table>") == 1 and "A (sidebar settings)" in diff
    added = [line for line in pb.tool_search_description.splitlines()
             if line not in pa.tool_search_description.splitlines()]
    assert added and html.escape(added[0][:30], quote=False).replace("_", "_<wbr>") in diff.replace(
        "<mark>", "").replace("</mark>", "")
    assert '<colgroup><col class="ln"><col><col class="ln"><col></colgroup>' in diff  # two equal text columns
    # The caption names the colors the diff's CSS paints: removed red, added violet.
    from toolsearch.analysis.palette import DIFF_COLORS
    from test_compare_diff import _hue_name  # the color word for a fill's hue, independent of the app
    caption = next(c.value for c in at.caption if "removed lines are" in c.value)
    named = dict(re.findall(r"(removed|added) lines are (\w+)", caption))
    fills = dict(re.findall(r"\.ts-diff td\.(del|add)\{background:(#[0-9A-Fa-f]{6})\}", diff))
    assert fills == {"del": DIFF_COLORS["removed"], "add": DIFF_COLORS["added"]}
    assert named == {"removed": _hue_name(fills["del"]), "added": _hue_name(fills["add"])} == {
        "removed": "red", "added": "violet"}


def test_what_the_model_sees_links_to_the_one_compare_view():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("toolsearch/ui/model_view.py").run()
    assert not at.exception, at.exception
    assert [t.label for t in at.tabs] == ["tool_search description", "Tools array (JSON)", "Per-server states"]
    links = [e for e in at.get("page_link")]
    assert len(links) == 1 and links[0].proto.page.endswith("cache_diff")
    assert "Compare & collapse" in links[0].proto.label


def test_server_pairs_match_servers_by_name_across_two_catalogs():
    """The library's pairs: A's servers in A's order, then the servers only B has; a server on one
    side only is a change, with ``None`` for the missing side."""
    from toolsearch.analysis.serverpairs import plan_pairs

    data = yaml.safe_load(TEAM.read_text(encoding="utf-8"))
    data["servers"] = [s for s in data["servers"] if s["name"] != "slack"] + [
        {"name": "calendar", "tools": [{"name": "list_events", "description": "List events.",
                                        "inputSchema": {"type": "object"}}]}]
    other = Inspector(load_text(yaml.safe_dump(data), "other.yaml"))
    pa = _team().plan(parse_config({}), 200_000)
    pb = other.plan(parse_config({}), 200_000)
    pairs = plan_pairs(pa, pb)
    assert [p.server for p in pairs] == [s.name for s in pa.servers] + ["calendar"]
    by_name = {p.server: p for p in pairs}
    slack = next(s for s in pa.servers if s.name == "slack")
    assert (by_name["slack"].state_a, by_name["slack"].state_b, by_name["slack"].tools_b) == (slack.state, None, None)
    assert by_name["calendar"].state_a is None and by_name["calendar"].tools_b == 1 and by_name["calendar"].changed
    github_a = next(s for s in pa.servers if s.name == "github")
    github_b = next(s for s in pb.servers if s.name == "github")
    assert (by_name["github"].names_tokens_a, by_name["github"].names_tokens_b) == (github_a.names_tokens,
                                                                                     github_b.names_tokens)
    assert by_name["github"].changed == (github_a.state != github_b.state)


def test_server_pairs_walk_each_side_a_few_times_not_once_per_server():
    """Which servers only B has was decided with a set of A's names made again for each server of
    B: the Compare & collapse page took 9 s at 10,000 servers. A's servers are now walked a fixed
    number of times, however many servers there are."""
    import dataclasses

    from toolsearch.analysis.serverpairs import plan_pairs

    class Walks(list):
        walks = 0

        def __iter__(self):
            Walks.walks += 1
            return super().__iter__()

    pa = _team().plan(parse_config({}), 200_000)
    counted = dataclasses.replace(pa, servers=Walks(pa.servers))
    pairs = plan_pairs(counted, pa)
    assert [p.server for p in pairs] == [s.name for s in pa.servers] and len(pa.servers) > 3
    assert Walks.walks <= 3, Walks.walks  # once per server of B: one more walk each

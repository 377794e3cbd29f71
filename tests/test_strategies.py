"""Disclosure strategies: the worked example, per-strategy rules, skills, events, CLI, app.

Expected values are built by hand from the catalogs and skills written here (sizes with the chars4
estimate, ``ceil(characters / 4)``), or taken from the engine pieces the strategies are defined on
(the reference :class:`~toolsearch.engine.plan.Plan`, the :class:`~toolsearch.engine.bridge.Bridge`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from streamlit.runtime.pages_manager import PagesManager
from streamlit.testing.v1 import AppTest

from conftest import ceil4, compact, inspector_of, literal_tables, obj, run_cli
from toolsearch.engine import constants as C
from toolsearch.engine.bridge import to_wire
from toolsearch.engine.catalog import catalog_from_data, load_source
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.analysis.skills import SkillError, dump_skill_md, load_skills, parse_skill_md, skills_from_texts
from toolsearch.analysis.strategies import (ALL_UPFRONT, ANTHROPIC, COMBINED, LOADED, NAMESPACE, OPENAI, PINNED_BODY, SCHEMA,
                                   SKILL_BODY, SKILL_LINKED, STRATEGIES, STUB, TIERED, Event, Namespace,
                                   StrategyError, StrategyModel, StrategySettings, Task, dump_events,
                                   events_from_text, load_events, parse_events, task_from_events)
from toolsearch.analysis.synthetic import synthetic_catalog, worked_example, write_worked_example

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "sample_catalogs" / "seed-worked-example"
TEAM = ROOT / "sample_catalogs" / "team-workspace.yaml"
SAMPLE_SKILLS = ROOT / "sample_skills"

SMALL = {
    "name": "Small",
    "servers": [
        {"name": "github", "tools": [
            {"name": "create_issue", "description": "Open a new issue in a repository.", "inputSchema": obj("title", "body")},
            {"name": "list_issues", "description": "List issues in a repository.", "inputSchema": obj("repo")},
            {"name": "search_code", "description": "Search code across repositories.", "inputSchema": obj("q")},
        ]},
        {"name": "slack", "tools": [
            {"name": "post_message", "description": "Post a message to a channel.", "inputSchema": obj("channel", "text")},
            {"name": "list_channels", "description": "List the channels.", "inputSchema": obj()},
        ]},
        {"name": "core", "kind": "core", "tools": [
            {"name": "read_file", "description": "Read a file.", "inputSchema": obj("path")},
        ]},
    ],
}
CREATE, LIST, SEARCH = "mcp__github__create_issue", "mcp__github__list_issues", "mcp__github__search_code"
POST, CHANNELS, READ = "mcp__slack__post_message", "mcp__slack__list_channels", "read_file"
#: Registration order (sorted by wire name).
ORDER = [CREATE, LIST, SEARCH, CHANNELS, POST, READ]

SKILLS_YAML = f"""\
- name: github-triage
  description: Triage GitHub issues.
  include_tools: {LIST} {CREATE}
  body: Label every new issue and ask for missing steps.
- name: slack-post
  description: Post to Slack.
  allowed-tools: {CREATE}
  metadata:
    include_tools: {POST}
  body: Post politely.
"""


def small(data=SMALL) -> Inspector:
    return Inspector(catalog_from_data(data, "small.yaml"))


def small_skills():
    return skills_from_texts([("skills.yaml", SKILLS_YAML)])


def model(settings: StrategySettings | None = None, skills=True, data=SMALL) -> StrategyModel:
    return StrategyModel(small(data), small_skills() if skills else None, settings)


def run(m: StrategyModel, *events: Event, strategies=STRATEGIES):
    return m.timeline(list(events), strategies)


def schema_names(state) -> list[str]:
    return [name for p in state.prefix if p.form == SCHEMA for name, _ in (p.members or ((p.name, SCHEMA),))]


TOOL_TOKENS = {n: t for n, t in small().planner.tool_tokens("chars4").items()}
LISTING = {"github-triage": ceil4("- github-triage: Triage GitHub issues."),
           "slack-post": ceil4("- slack-post: Post to Slack.")}
BODY = {"github-triage": ceil4("Label every new issue and ask for missing steps."), "slack-post": ceil4("Post politely.")}


# --- the worked example ------------------------------------------------------------------------------

def _check_worked_example(results):
    by = {r.strategy: r for r in results}
    everything, linked = by[ALL_UPFRONT], by[SKILL_LINKED]
    assert everything.upfront_tokens == 105_000            # 200 × 500 + 50 × 100
    assert everything.task_tokens == 109_000               # + 2 × 2,000 bodies
    assert linked.upfront_tokens == 5_000                  # the 50 listing lines only
    assert linked.upfront_breakdown == {"skill listing": 5_000}
    assert linked.task_tokens == 11_000 == 5_000 + 4_000 + 2_000
    assert everything.task_tokens - linked.task_tokens == 98_000
    assert [t.round_trips for t in linked.per_tool] == [1, 0, 1, 0]
    assert all(t.called for r in results for t in r.per_tool)


def test_worked_example_in_memory_is_exact():
    example = worked_example()
    m = StrategyModel(Inspector(example.catalog), example.skills)
    assert set(m.tool_tokens.values()) == {500} and len(m.tool_tokens) == 200
    assert set(m.listing_tokens.values()) == {100} and set(m.body_tokens.values()) == {2000}
    task = task_from_events(example.events)
    assert task == Task(("skill-01", "skill-02"), example.task_tools)
    _check_worked_example(m.results(task))


def test_worked_example_files_are_shipped_and_exact(tmp_path):
    written = write_worked_example(tmp_path / "seed")
    for path in written:
        shipped = SEED / path.relative_to(tmp_path / "seed")
        assert shipped.read_bytes() == path.read_bytes(), f"{shipped} differs from the generator's output"
    m = StrategyModel(Inspector(load_source(SEED / "catalog.yaml")), load_skills(SEED / "skills"))
    assert m.skillset.problems == () and m.problems == ()
    events = load_events(SEED / "task.yaml")
    _check_worked_example(m.results(task_from_events(events)))


def test_worked_example_uniform_override():
    """Any catalog of 200 tools with the per-tool size fixed at 500 gives the same figures."""
    catalog = synthetic_catalog(200, 123, 10)  # the same wire names, 123-token definitions
    example = worked_example()
    assert set(StrategyModel(Inspector(catalog)).tool_tokens.values()) == {123}
    m = StrategyModel(Inspector(catalog), example.skills, StrategySettings(tool_tokens=500))
    assert set(m.tool_tokens.values()) == {500}
    task = Task(("skill-01", "skill-02"), example.task_tools)
    _check_worked_example(m.results(task))


def test_worked_example_timeline_calls_fail_before_read_and_after_compaction():
    example = worked_example()
    m = StrategyModel(Inspector(example.catalog), example.skills)
    steps = m.timeline(example.events)
    linked = [s.state(SKILL_LINKED) for s in steps]
    t1 = example.task_tools[0]
    assert [s.event.label() if s.event else "start" for s in steps][:2] == ["start", f"call {t1}"]
    assert linked[1].outcome == "failed"
    assert linked[1].message == (f"unknown tool {t1}: it becomes callable after reading skill skill-01, "
                                 "which has not been read")
    assert [s.outcome for s in linked[2:8]] == ["ok"] * 6
    assert linked[3].prompt_tokens == 11_000
    assert linked[8].prompt_tokens == 5_000 and not linked[8].cache_holds      # compaction drops read + tools
    assert linked[9].outcome == "failed" and linked[9].message.endswith("since the last compaction")
    assert linked[10].added_tokens == 2_000 + 2 * 500                        # body paid again, tools again
    assert linked[11].outcome == "ok"
    everything = [s.state(ALL_UPFRONT) for s in steps]
    assert [s.prompt_tokens for s in everything] == [105_000, 105_000, 107_000, 109_000, 109_000, 109_000, 109_000,
                                                     109_000, 105_000, 105_000, 107_000, 107_000]
    assert all(s.outcome == "ok" for s in everything[1:]) and all(s.cache_holds for s in everything)


# --- all up front and tiered ----------------------------------------------------------------------------

def test_all_upfront_sends_every_schema_and_the_skills_listing():
    m = model()
    r = m.result(ALL_UPFRONT)
    # The definitions are measured as one tools array, as the plan measures "all schemas up front"
    # (chars4 rounds once over the array, not per tool).
    eager = small().plan(parse_config({}), 200_000).eager_tokens
    assert eager < sum(TOOL_TOKENS.values())
    assert r.upfront_tokens == eager + sum(LISTING.values())
    assert r.upfront_breakdown == {"schema": eager, "skill listing": sum(LISTING.values())}
    assert r.tools_upfront == r.callable_upfront == 6 and r.round_trips == 0


def test_tiered_is_the_reference_plan():
    ins = small()
    m = StrategyModel(ins, None, StrategySettings(context_length=200_000))
    plan = ins.plan(parse_config({}), 200_000)
    r = m.result(TIERED, Task((), (CREATE,)))
    assert r.upfront_tokens == plan.tools_tokens
    start = m.timeline([])[0].state(TIERED)
    assert start.visible_tools == ((READ, SCHEMA), ("tool_search", "bridge tool"), ("tool_describe", "bridge tool"),
                                   ("tool_call", "bridge tool"))
    assert set(start.callable) == set(ORDER)  # deferred tools through tool_call
    # listed (full listing at 200K) → one tool_describe, whose response is the real bridge response
    bridge = ins.bridge(parse_config({}))
    described = ceil4(to_wire(bridge.tool_describe({"names": [CREATE]})))
    assert r.per_tool[0].steps == (f"tool_describe {CREATE}",)
    assert r.task_tokens == plan.tools_tokens + described


def test_tiered_search_event_counts_the_bridge_response():
    ins = small()
    m = StrategyModel(ins, None)
    steps = m.timeline([Event("search", "github issue")], (TIERED,))
    expected = ceil4(to_wire(ins.bridge(parse_config({})).tool_search({"queries": ["github issue"]})))
    assert steps[1].state(TIERED).added_tokens == expected and steps[1].state(TIERED).cache_holds


# --- provider search: Anthropic ------------------------------------------------------------------------------

def test_anthropic_keeps_the_reference_visible_tools_non_deferred():
    start = run(model(), strategies=(ANTHROPIC,))[0].state(ANTHROPIC)
    assert schema_names(start) == [READ]
    assert start.callable == (READ,)
    search_tool = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
    assert [p.tokens for p in start.prefix if p.form == "search tool"] == [ceil4(compact(search_tool))]


def test_anthropic_enforces_at_least_one_non_deferred_tool():
    m = model(StrategySettings(non_deferred=()))
    start = run(m, strategies=(ANTHROPIC,))[0].state(ANTHROPIC)
    assert schema_names(start) == [CREATE]  # the first tool in catalog order
    assert start.callable == (CREATE,)
    assert any(n.startswith("at least 1 tool must stay non-deferred: mcp__github__create_issue")
               for n in m.result(ANTHROPIC).notes)


def test_anthropic_defers_at_most_10000_tools():
    m = StrategyModel(Inspector(synthetic_catalog(10_003, 64, 1)), None)
    non_deferred, deferred, notes = m.provider_split(m.all_servers, exclude_linked=False)
    assert len(deferred) == C.ANTHROPIC_MAX_DEFERRED_TOOLS == 10_000
    assert non_deferred == ["mcp__s01__tool_00001", "mcp__s01__tool_10002", "mcp__s01__tool_10003"]
    assert notes[1] == ("at most 10,000 tools can be deferred: the last 2 in catalog order stay non-deferred")


ISSUES = {"name": "Issues", "servers": [
    {"name": "tracker", "tools": [{"name": f"issue_{c}", "description": f"Work with issue kind {c}.",
                                   "inputSchema": obj("id")} for c in "abcdefg"]},
    {"name": "core", "kind": "core", "tools": [{"name": "read_file", "description": "Read a file."}]}]}


@pytest.mark.parametrize("results, expected", [(None, 5), (2, 2)])
def test_anthropic_search_returns_5_results_by_default(results, expected):
    settings = StrategySettings() if results is None else StrategySettings(anthropic_search_results=results)
    m = StrategyModel(small(ISSUES), None, settings)
    state = run(m, Event("search", "issue"), strategies=(ANTHROPIC,))[1].state(ANTHROPIC)
    loaded = [p.name for p in state.conversation if p.form == LOADED]
    assert loaded == [f"mcp__tracker__issue_{c}" for c in "abcdefg"[:expected]]
    assert state.added_tokens == sum(m.tool_tokens[n] for n in loaded)
    assert state.cache_holds  # loaded definitions are inline: the prefix is unchanged


def test_anthropic_query_and_pattern_length_limits():
    m = model()
    bm25 = run(m, Event("search", "a" * 500), Event("search", "a" * 501), strategies=(ANTHROPIC,))
    assert bm25[1].state(ANTHROPIC).outcome == "ok"
    assert bm25[2].state(ANTHROPIC).outcome == "failed"
    assert bm25[2].state(ANTHROPIC).message == "BM25 query of 501 characters: at most 500 are allowed"
    m = model(StrategySettings(search_variant="regex"))
    regex = run(m, Event("search", "x" * 200), Event("search", "x" * 201), Event("search", "("), strategies=(ANTHROPIC,))
    assert regex[1].state(ANTHROPIC).outcome == "ok"
    assert regex[2].state(ANTHROPIC).message == "regex pattern of 201 characters: at most 200 are allowed"
    assert regex[3].state(ANTHROPIC).outcome == "failed"
    assert regex[3].state(ANTHROPIC).message.startswith("not a valid regular expression")


def test_anthropic_regex_searches_names_descriptions_and_argument_names():
    m = model(StrategySettings(search_variant="regex"))
    state = run(m, Event("search", "channel"), strategies=(ANTHROPIC,))[1].state(ANTHROPIC)
    # list_channels by name, post_message by its argument "channel" and description; catalog order.
    assert [p.name for p in state.conversation] == [CHANNELS, POST]
    assert set(state.callable) == {READ, CHANNELS, POST}


# --- provider search: OpenAI ----------------------------------------------------------------------------------

def test_openai_deferred_functions_show_name_and_description_up_front():
    m = model(StrategySettings(group_servers=False), skills=False)
    start = run(m, strategies=(OPENAI,))[0].state(OPENAI)
    ins = small()
    by = ins.registration.by_name()
    stubs = {p.name: p.tokens for p in start.prefix if p.form == STUB}
    assert stubs == {n: ceil4(compact({"name": n, "description": by[n].description})) for n in ORDER if n != READ}
    assert schema_names(start) == [READ]
    assert start.callable == (READ,)  # parameters deferred: not callable until loaded


def test_openai_namespaces_show_only_their_name_and_description():
    m = model(skills=False)
    start = run(m, strategies=(OPENAI,))[0].state(OPENAI)
    profile = small().profile
    namespaces = {p.name: p.tokens for p in start.prefix if p.form == NAMESPACE}
    assert namespaces == {
        server: ceil4(compact({"name": server, "description": profile.text("listing", "summary_line", label=server,
                                                                            count=count)}))
        for server, count in (("github", 3), ("slack", 2))}
    visible = [name for name, _ in start.visible_tools]
    assert visible == [READ, "github", "slack", "tool_search"]
    assert not any(n.startswith("mcp__") for n in visible)


def test_openai_custom_namespace_and_size_recommendation():
    settings = StrategySettings(namespaces=(Namespace("tracking", "Issue tracking.", (CREATE, LIST)),))
    start = run(model(settings, skills=False), strategies=(OPENAI,))[0].state(OPENAI)
    groups = {p.name: p.members for p in start.prefix if p.form == NAMESPACE}
    assert groups == {"tracking": (("tracking", "namespace: 2 functions"),),
                      "github": (("github", "mcp server: 1 function"),),
                      "slack": (("slack", "mcp server: 2 functions"),)}
    nine = {"servers": [{"name": "big", "tools": [{"name": f"t{i}"} for i in range(9)]}]}
    ten = {"servers": [{"name": "big", "tools": [{"name": f"t{i}"} for i in range(10)]}]}
    assert not any("recommends" in n for n in StrategyModel(small(nine)).result(OPENAI).notes)
    assert ("1 namespace holds 10 or more functions: big (10); OpenAI recommends fewer than 10 per namespace"
            in StrategyModel(small(ten)).result(OPENAI).notes)


def test_openai_discovered_tools_are_appended_at_the_end():
    m = model()
    steps = run(m, Event("read_skill", "slack-post"), Event("search", "post message channel"), strategies=(OPENAI,))
    state = steps[2].state(OPENAI)
    assert [(p.form, p.name) for p in state.conversation][0] == (SKILL_BODY, "slack-post")
    assert state.conversation[-1].form == LOADED and POST in [p.name for p in state.conversation[1:]]
    assert state.cache_holds and POST in state.callable


# --- skill-linked ---------------------------------------------------------------------------------------------

def test_skill_linked_tool_is_unknown_before_its_skill_is_read():
    steps = run(model(), Event("call", LIST), Event("read_skill", "github-triage"), Event("call", LIST),
                strategies=(SKILL_LINKED,))
    first, read, again = (s.state(SKILL_LINKED) for s in steps[1:])
    assert first.outcome == "failed"
    assert first.message == (f"unknown tool {LIST}: it becomes callable after reading skill github-triage, "
                             "which has not been read")
    assert read.added_tokens == BODY["github-triage"] + TOOL_TOKENS[LIST] + TOOL_TOKENS[CREATE]
    assert again.outcome == "ok" and again.message == f"called {LIST} (unlocked by reading skill github-triage)"
    start = steps[0].state(SKILL_LINKED)
    assert schema_names(start) == [SEARCH, CHANNELS, READ]  # unlinked tools only


def test_skill_linked_compaction_drops_the_read_and_its_tools():
    steps = run(model(), Event("read_skill", "github-triage"), Event("compaction"), Event("call", CREATE),
                Event("read_skill", "github-triage"), Event("call", CREATE), strategies=(SKILL_LINKED,))
    states = [s.state(SKILL_LINKED) for s in steps]
    assert not states[2].cache_holds  # the tools leave the tools array again
    assert CREATE not in states[2].callable
    assert states[3].outcome == "failed" and states[3].message.endswith("since the last compaction")
    assert states[4].added_tokens == states[1].added_tokens  # body (and tools) paid again
    assert states[5].outcome == "ok"


def test_skill_linked_pinned_skills_are_in_the_input_with_their_tools():
    m = model(StrategySettings(pinned_skills=("github-triage",)))
    steps = run(m, Event("call", CREATE), Event("read_skill", "github-triage"), strategies=(SKILL_LINKED,))
    start = steps[0].state(SKILL_LINKED)
    assert [p.name for p in start.prefix if p.form == PINNED_BODY] == ["github-triage"]
    assert schema_names(start) == [SEARCH, CHANNELS, READ, CREATE, LIST]
    by_name = {t.name: t.definition for t in small().registration.tools}
    array = ceil4(sum(len(compact(by_name[n])) for n in (SEARCH, CHANNELS, READ, CREATE, LIST)))  # one array
    assert start.prompt_tokens == array + sum(LISTING.values()) + BODY["github-triage"]
    assert steps[1].state(SKILL_LINKED).outcome == "ok"
    assert steps[2].state(SKILL_LINKED).added_tokens == 0
    assert steps[2].state(SKILL_LINKED).message == "github-triage is pinned: its body is already in the input"


@pytest.mark.parametrize("mid, breaks", [(False, True), (True, False)])
def test_skill_linked_cache_depends_on_mid_conversation_support(mid, breaks):
    m = model(StrategySettings(mid_conversation_tools=mid))
    state = run(m, Event("read_skill", "github-triage"), strategies=(SKILL_LINKED,))[1].state(SKILL_LINKED)
    assert state.cache_holds is not breaks
    loaded = [p.name for p in state.conversation if p.form == LOADED]
    assert loaded == ([] if breaks else [CREATE, LIST])  # catalog order
    result = m.result(SKILL_LINKED, Task(("github-triage",), (LIST,)))
    assert result.cache_breaks == (1 if breaks else 0)
    assert result.read_before_call is True


def test_allowed_tools_is_pre_approval_not_disclosure():
    m = model()
    steps = run(m, Event("read_skill", "slack-post"), Event("call", CREATE), strategies=(SKILL_LINKED,))
    assert CREATE not in steps[1].state(SKILL_LINKED).callable
    assert steps[2].state(SKILL_LINKED).outcome == "failed"
    assert [p.message for p in m.problems if p.severity == "info"] == [
        f"skill 'slack-post' pre-approves {CREATE}: pre-approval only, it neither shows nor unlocks any tool"]


# --- combined ----------------------------------------------------------------------------------------------

def test_combined_search_loses_the_read_before_call_guarantee():
    m = model()
    events = [Event("search", "create issue"), Event("call", CREATE)]
    steps = m.timeline(events, (SKILL_LINKED, COMBINED))
    assert steps[2].state(SKILL_LINKED).outcome == "failed"
    combined = steps[2].state(COMBINED)
    assert combined.outcome == "ok"
    assert combined.message == (f"called {CREATE} (called without reading skill github-triage: search made it "
                                "callable, so the read-before-call guarantee is lost)")
    result = m.result(COMBINED, Task((), (CREATE,)))
    assert result.read_before_call is False and m.result(SKILL_LINKED).read_before_call is True
    assert result.per_tool[0].via.endswith("without reading skill github-triage: the read-before-call guarantee is lost")
    assert any("read-before-call guarantee is lost" in n for n in result.notes)


def test_combined_skill_read_loads_linked_tools_inline_without_a_cache_break():
    m = model()
    state = m.timeline([Event("read_skill", "github-triage")], (COMBINED,))[1].state(COMBINED)
    assert state.cache_holds
    assert [p.name for p in state.conversation if p.form == LOADED] == [CREATE, LIST]
    start = m.timeline([], (COMBINED,))[0].state(COMBINED)
    assert schema_names(start) == [READ]  # linked tools deferred, the core tool kept


# --- events -------------------------------------------------------------------------------------------------

def test_events_round_trip_and_task():
    text = ("- {read_skill: pdf}\n- {call: mcp__github__create_issue}\n- {search: github issue}\n"
            "- {describe: [a, b]}\n- compaction\n- {add_server: sentry}\n- {remove_server: sentry}\n")
    events = events_from_text(text, "e.yaml")
    assert events == (Event("read_skill", "pdf"), Event("call", CREATE), Event("search", "github issue"),
                      Event("describe", ("a", "b")), Event("compaction"), Event("add_server", "sentry"),
                      Event("remove_server", "sentry"))
    assert dump_events(events) == text
    assert task_from_events(events + (Event("call", CREATE),)) == Task(("pdf",), (CREATE,))


@pytest.mark.parametrize("data, message", [
    ({"x": 1}, "e.yaml: top level: expected a list of events"),
    (["jump"], "e.yaml: [0]: unknown event 'jump'; expected one of search, describe, read_skill, call, "
               "compaction, add_server, remove_server"),
    ([{"call": ""}], "e.yaml: [0].call: expected a tool wire name as a non-empty string, got ''"),
    (["compaction", {"compaction": 3}], "e.yaml: [1].compaction: compaction takes no argument, got 3"),
    ([{"describe": []}], "e.yaml: [0].describe: expected a tool name or a non-empty list of tool names"),
    ([{"call": "a", "read_skill": "b"}], "e.yaml: [0]: expected one event such as 'compaction' or {call: NAME}, "
                                         "got a mapping with 2 keys"),
])
def test_events_errors_name_the_file_and_item(data, message):
    with pytest.raises(StrategyError) as err:
        parse_events(data, "e.yaml")
    assert str(err.value).startswith(message)


def test_events_naming_unknown_things_are_located():
    m = model()
    with pytest.raises(StrategyError, match=r"^e.yaml: \[1\].call: 'mcp__nope' is not a tool of this catalog"):
        m.check_events([Event("compaction"), Event("call", "mcp__nope")], "e.yaml")
    with pytest.raises(StrategyError, match=r"^e.yaml: \[0\].read_skill: skill 'nope' is not loaded"):
        m.check_events([Event("read_skill", "nope")], "e.yaml")
    with pytest.raises(StrategyError, match=r"^task: 'x' is not a tool of this catalog"):
        m.results(Task((), ("x",)))


def test_add_server_starts_disconnected_and_the_cache_depends_on_the_strategy():
    m = model(skills=False)
    steps = m.timeline([Event("add_server", "slack"), Event("remove_server", "slack")])
    start = steps[0]
    assert POST not in start.state(ALL_UPFRONT).callable and POST not in schema_names(start.state(ALL_UPFRONT))
    added = steps[1]
    assert {s.strategy: s.cache_holds for s in added.states} == {
        ALL_UPFRONT: False, TIERED: False, ANTHROPIC: True, OPENAI: False, SKILL_LINKED: False, COMBINED: True}
    assert added.state(ALL_UPFRONT).added_tokens == TOOL_TOKENS[POST] + TOOL_TOKENS[CHANNELS]
    assert added.state(ALL_UPFRONT).cache_note == ("cache breaks: the prefix changed (added mcp__slack__list_channels, "
                                                   "mcp__slack__post_message)")
    assert steps[2].state(ALL_UPFRONT).prompt_tokens == start.state(ALL_UPFRONT).prompt_tokens


# --- skills loader ---------------------------------------------------------------------------------------

def _skill(folder: Path, name: str, text: str) -> None:
    (folder / name).mkdir(parents=True)
    (folder / name / "SKILL.md").write_text(text, encoding="utf-8")


def test_skills_folder_one_bad_skill_never_drops_the_others(tmp_path):
    _skill(tmp_path, "good", "---\nname: good\ndescription: A good skill.\nmetadata:\n  include_tools: a b a\n"
                             "allowed-tools: c\n---\n\n# Body\n\nDo it.\n")
    _skill(tmp_path, "no-front", "# just markdown\n")
    _skill(tmp_path, "unclosed", "---\nname: unclosed\ndescription: x\n")
    _skill(tmp_path, "bad-yaml", "---\nname: bad-yaml\ndescription: [oops\n---\nbody\n")
    _skill(tmp_path, "no-desc", "---\nname: no-desc\n---\nbody\n")
    _skill(tmp_path, "other-folder", "---\nname: renamed\ndescription: Kept.\nmetadata:\n  include_tools: 5\n---\nbody\n")
    result = load_skills(tmp_path)
    assert result.names == ("good", "renamed")
    good = result.skills[0]
    assert (good.description, good.include_tools, good.allowed_tools, good.body) == (
        "A good skill.", ("a", "b"), ("c",), "# Body\n\nDo it.")
    found = {(p.severity, p.where.replace(str(tmp_path) + "/", ""), p.message) for p in result.problems}
    # The YAML error's wording comes from the YAML library (C or pure-Python loader); its place is ours.
    bad = {f for f in found if f[1].startswith("bad-yaml/")}
    found -= bad
    assert [(s, w) for s, w, _ in bad] == [("error", "bad-yaml/SKILL.md: line 3, column 14")]
    assert next(iter(bad))[2].startswith("frontmatter is not valid YAML (")
    assert found == {
        ("error", "no-desc/SKILL.md: frontmatter.description", "skill 'no-desc': expected a non-empty string; skill skipped"),
        ("error", "no-front/SKILL.md: line 1", "expected YAML frontmatter opening with a '---' line; skill skipped"),
        ("warning", "other-folder/SKILL.md: frontmatter.metadata.include_tools",
         "expected a space-separated string of tool names, got a whole number; ignored"),
        ("warning", "other-folder/SKILL.md: frontmatter.name",
         "'renamed' differs from its folder name 'other-folder' (Agent Skills expects them equal); kept"),
        ("error", "unclosed/SKILL.md: line 1", "the frontmatter opened here has no closing '---' line; skill skipped"),
    }


def test_skills_folder_one_unreadable_skill_file_never_drops_the_others(tmp_path):
    # Not UTF-8 (or over the size limit): that SKILL.md is skipped with a word, the rest load.
    _skill(tmp_path, "good", "---\nname: good\ndescription: A good skill.\n---\nbody\n")
    (tmp_path / "latin1").mkdir()
    (tmp_path / "latin1" / "SKILL.md").write_bytes(b"---\nname: latin1\ndescription: caf\xe9\n---\nbody\n")
    result = load_skills(tmp_path)
    assert result.names == ("good",)
    assert [(p.severity, p.where.replace(str(tmp_path) + "/", ""), p.message) for p in result.problems] == [
        ("error", "latin1/SKILL.md: line 3, column 17 (byte 33)",
         "not UTF-8 text (byte 0xe9); save the file as UTF-8; file skipped")]
    with pytest.raises(SkillError, match=r"latin1/SKILL.md: line 3, column 17 \(byte 33\): not UTF-8 text"):
        load_skills(tmp_path / "latin1")  # the only file: an error, as before


def test_skills_uploads_one_bad_skill_list_never_drops_the_others():
    good = "---\nname: good\ndescription: A good skill.\n---\nbody\n"
    result = skills_from_texts([("good/SKILL.md", good), ("broken.yaml", "name: not a list\n"),
                                ("list.yaml", "- {name: one, description: First.}\n")])
    assert result.names == ("good", "one")
    assert [(p.severity, p.where, p.message) for p in result.problems] == [
        ("error", "broken.yaml: top level",
         "expected a list of skills (or a mapping with a 'skills' list), got a mapping; file skipped")]
    with pytest.raises(SkillError, match="broken.yaml: top level"):
        skills_from_texts([("broken.yaml", "name: not a list\n")])


def test_skills_yaml_list_with_a_bad_entry_and_a_duplicate():
    text = ("- {name: one, description: First., include_tools: x y, body_tokens: 700}\n"
            "- {description: no name}\n"
            "- {name: one, description: Again.}\n"
            "- name: Two_Bad\n  description: Kept anyway.\n  body: hello\n")
    result = skills_from_texts([("list.yaml", text)])
    assert result.names == ("one", "Two_Bad")
    assert result.skills[0].include_tools == ("x", "y") and result.skills[0].body_tokens == 700
    assert [(p.severity, p.where) for p in result.problems] == [
        ("error", "list.yaml: [1].name"), ("warning", "list.yaml: [3].name"), ("error", "list.yaml: [2]")]
    assert result.problems[2].message == "skill 'one' is already defined in list.yaml: [0]; this one is skipped"


def test_skills_unreadable_sources_raise(tmp_path):
    with pytest.raises(SkillError, match="no such file or folder"):
        load_skills(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(SkillError, match=r"empty: no SKILL.md files in this folder or below it"):
        load_skills(tmp_path / "empty")
    (tmp_path / "x.yaml").write_text("name: not a list\n", encoding="utf-8")
    with pytest.raises(SkillError, match=r"x.yaml: top level: expected a list of skills"):
        load_skills(tmp_path / "x.yaml")


def test_shown_path_is_relative_in_the_working_folder_and_short_under_home():
    from toolsearch.analysis.wording import shown_path

    home, work = "/home/ann", "/home/ann/projects/app"
    assert shown_path("/home/ann/projects/app/skills/pdf/SKILL.md", work, home) == "skills/pdf/SKILL.md"
    assert shown_path("/home/ann/projects/app", work, home) == "."
    assert shown_path("/home/ann/.claude/skills/pdf/SKILL.md", work, home) == "~/.claude/skills/pdf/SKILL.md"
    assert shown_path("/home/ann", work, home) == "~"
    assert shown_path("/home/annex/x/SKILL.md", work, home) == "/home/annex/x/SKILL.md"  # not inside home
    assert shown_path("/srv/skills/SKILL.md", work, home) == "/srv/skills/SKILL.md"
    assert shown_path("skills/pdf/SKILL.md", work, home) == "skills/pdf/SKILL.md"  # relative: as given
    assert shown_path("../other/SKILL.md", work, home) == "~/projects/other/SKILL.md"
    assert shown_path("/x/SKILL.md", "/work", "/") == "/x/SKILL.md"  # a home at the root shortens nothing


def _home_skills(tmp_path: Path, monkeypatch) -> Path:
    """A skills folder under a home folder (HOME set to it) with one good and one renamed skill;
    the working folder is elsewhere."""
    home = tmp_path / "home"
    _skill(home / "skills", "good", "---\nname: good\ndescription: Good.\n---\nbody\n")
    _skill(home / "skills", "other", "---\nname: renamed\ndescription: Kept.\n---\nbody\n")
    (tmp_path / "work").mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path / "work")
    return home / "skills"


def test_skill_paths_are_shown_under_home_as_tilde_and_relative_in_the_working_folder(tmp_path, monkeypatch):
    folder = _home_skills(tmp_path, monkeypatch)
    skills = load_skills(folder)
    assert [s.origin for s in skills.skills] == ["~/skills/good/SKILL.md", "~/skills/other/SKILL.md"]
    assert skills.sources == ("~/skills",)
    assert [p.where for p in skills.problems] == ["~/skills/other/SKILL.md: frontmatter.name"]
    with pytest.raises(SkillError, match=r"^~/skills/none: no such file or folder$"):
        load_skills(folder / "none")
    monkeypatch.chdir(folder)  # inside the working folder: relative to it
    skills = load_skills(folder)
    assert [s.origin for s in skills.skills] == ["good/SKILL.md", "other/SKILL.md"]
    assert skills.sources == (".",)
    # one SKILL.md named without its folder keeps its place and skips the folder-name check
    monkeypatch.chdir(folder / "other")
    one = load_skills(folder / "other" / "SKILL.md")
    assert [s.origin for s in one.skills] == ["SKILL.md"] and one.problems[0].where == "SKILL.md: frontmatter.name"
    assert load_skills("SKILL.md").problems == ()


def test_cli_prints_skill_paths_under_home_with_a_tilde(tmp_path, monkeypatch):
    folder = _home_skills(tmp_path, monkeypatch)
    done = run_cli("strategies", TEAM, "--skills", folder)
    assert done.returncode == 0, done.stderr
    assert ("toolsearch: skills warning: ~/skills/other/SKILL.md: frontmatter.name: 'renamed' differs from its "
            "folder name 'other' (Agent Skills expects them equal); kept") in done.stderr.splitlines()
    assert str(tmp_path) not in done.stderr + done.stdout


def test_skill_md_round_trip():
    skill = small_skills().skills[1]
    problems = []
    back = parse_skill_md(dump_skill_md(skill), "SKILL.md", problems)
    assert problems == [] and back.name == skill.name and back.include_tools == skill.include_tools
    assert back.allowed_tools == skill.allowed_tools and back.body == skill.body


def test_sample_skills_link_real_team_workspace_tools():
    skills = load_skills(SAMPLE_SKILLS)
    assert 8 <= len(skills.skills) <= 13 and skills.problems == ()
    m = StrategyModel(inspector_of([TEAM]), skills)
    assert [p for p in m.problems if p.severity != "info"] == []
    assert sum(len(v) for v in m.links.values()) >= 50
    events = load_events(SAMPLE_SKILLS / "events.yaml")
    m.check_events(events, "events.yaml")


# --- CLI ----------------------------------------------------------------------------------------------------

def _cli(*args: str):
    from toolsearch.cli import strategies as cli_strategies

    parser = argparse.ArgumentParser(prog="toolsearch")
    cli_strategies.add_parser(parser.add_subparsers(dest="command", required=True))
    return cli_strategies.run(parser.parse_args(["strategies", *map(str, args)]))


def test_cli_json_on_the_worked_example(capsys):
    assert _cli(SEED / "catalog.yaml", "--skills", SEED / "skills", "--events", SEED / "task.yaml", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["strategy"] for o in out] == list(STRATEGIES)
    assert all(list(o)[:3] == ["strategy", "upfront_tokens", "task_tokens"] for o in out)
    by = {o["strategy"]: o for o in out}
    assert (by[ALL_UPFRONT]["upfront_tokens"], by[ALL_UPFRONT]["task_tokens"]) == (105_000, 109_000)
    assert (by[SKILL_LINKED]["upfront_tokens"], by[SKILL_LINKED]["task_tokens"]) == (5_000, 11_000)
    timeline = by[SKILL_LINKED]["timeline"]
    assert len(timeline) == 12 and timeline[0]["event"] is None
    assert [t["outcome"] for t in timeline].count("failed") == 2
    assert timeline[1]["event"] == {"call": "mcp__s01__tool_001"} and timeline[8]["event"] == "compaction"


def test_cli_json_matches_the_engine(capsys):
    post = "mcp__slack__slack_post_message"
    assert _cli(TEAM, "--skills", SAMPLE_SKILLS, "--use", post, "--read", "team-announcement", "--json",
                "--mid-conversation-tools") == 0
    out = json.loads(capsys.readouterr().out)
    m = StrategyModel(inspector_of([TEAM]), load_skills(SAMPLE_SKILLS),
                      StrategySettings(mid_conversation_tools=True))
    expected = [r.to_dict() for r in m.results(Task(("team-announcement",), (post,)))]
    assert out == json.loads(json.dumps(expected))


def test_cli_text_output(capsys):
    assert _cli(SEED / "catalog.yaml", "--skills", SEED / "skills", "--read", "skill-01") == 0
    out = capsys.readouterr().out
    assert "All up front                      105,000            107,000" in out
    # 5,000 listing + 2,000 body + the two tools skill-01 unlocks (2 × 500)
    assert "Skill-linked tools                5,000              8,000" in out


@pytest.mark.parametrize("args, message", [
    (["--skills", "missing-dir"], "toolsearch: error: missing-dir: no such file or folder"),
    (["--use", "mcp__nope"], "toolsearch: error: --read/--use: 'mcp__nope' is not a tool of this catalog"),
])
def test_cli_errors_are_one_line(capsys, args, message):
    assert _cli(TEAM, *args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(message)


def test_cli_events_error_names_the_file_and_item(tmp_path, capsys):
    events = tmp_path / "events.yaml"
    events.write_text("- compaction\n- {call: mcp__nope}\n", encoding="utf-8")
    assert _cli(TEAM, "--events", events) == 2
    assert capsys.readouterr().err.strip() == (f"toolsearch: error: {events}: [1].call: 'mcp__nope' is not a tool of "
                                               "this catalog (use the wire name, e.g. mcp__github__create_issue)")


def _wired() -> bool:
    from toolsearch.cli import commands as cli

    parser = cli.build_parser()
    return any(isinstance(a, argparse._SubParsersAction) and "strategies" in a.choices for a in parser._actions)


@pytest.mark.skipif(not _wired(), reason="toolsearch.cli.commands does not wire the strategies command yet")
def test_console_script_strategies_json():
    result = run_cli("strategies", SEED / "catalog.yaml", "--skills", SEED / "skills", "--events", SEED / "task.yaml",
                     "--json")
    assert result.returncode == 0, result.stderr
    by = {o["strategy"]: o for o in json.loads(result.stdout)}
    assert by[ALL_UPFRONT]["task_tokens"] - by[SKILL_LINKED]["task_tokens"] == 98_000
    bad = run_cli("strategies", SEED / "catalog.yaml", "--skills", "nowhere")
    assert bad.returncode == 2 and bad.stderr.strip() == "toolsearch: error: nowhere: no such file or folder"


# --- app ------------------------------------------------------------------------------------------------------

@pytest.fixture
def router_mode(monkeypatch):
    """Run AppTest through app.py's st.navigation router (see tests/test_app_search_costs.py)."""
    original = PagesManager.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        PagesManager.uses_pages_directory = False

    monkeypatch.setattr(PagesManager, "__init__", init)


def _page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    at.switch_page("toolsearch/ui/strategies.py").run()
    assert not at.exception, at.exception
    return at


def _table(at, column: str):
    """The literal-text table (cells as shown) that has ``column``."""
    return next(t for t in literal_tables(at).values() if column in t.columns)


def _expected_rows(results):
    return [[r.label, *(f"{n:,}" for n in (r.upfront_tokens, r.task_tokens, r.round_trips, r.cache_breaks,
                                          r.tools_upfront, r.callable_upfront))] for r in results]


def _shown_rows(at):
    table = _table(at, "up front (tokens, chars4)")
    return table[["strategy", "up front (tokens, chars4)", "task (tokens, chars4)", "round trips",
                  "cache breaks", "tools shown up front", "callable up front"]].values.tolist()


def _sidebar_settings(**changes) -> StrategySettings:
    return StrategySettings(config=parse_config({}), context_length=200_000, planning_tokenizer="chars4", **changes)


@pytest.mark.skipif(not (ROOT / "toolsearch" / "ui" / "strategies.py").exists(),
                    reason="the app has no Strategies page")
def test_page_table_equals_the_engine(router_mode):
    at = _page()
    events = load_events(SAMPLE_SKILLS / "events.yaml")
    m = StrategyModel(inspector_of([TEAM]), load_skills(SAMPLE_SKILLS), _sidebar_settings())
    results = m.results(task_from_events(events))
    assert _shown_rows(at) == _expected_rows(results)
    timeline = m.timeline(events)
    shown = _table(at, "step")
    shown = shown[[c for c in shown.columns if c not in ("step", "event")]].values.tolist()
    assert shown == [[f"{s.prompt_tokens:,}" for s in step.states] for step in timeline]

    at.toggle(key="strat_mid").set_value(True).run()
    assert not at.exception
    m = StrategyModel(inspector_of([TEAM]), load_skills(SAMPLE_SKILLS), _sidebar_settings(mid_conversation_tools=True))
    assert _shown_rows(at) == _expected_rows(m.results(task_from_events(events)))


#: The Strategies page's expanders whose content is drawn only when they are opened (session keys).
LAZY_BOXES = ("strat_events_open", "strat_breakdown_open", "strat_how_open", "strat_rules_open")


def _open_boxes(at: AppTest) -> None:
    for key in LAZY_BOXES:
        at.session_state[key] = True  # as a click on the expander does
    at.run()
    assert not at.exception, at.exception


def test_page_draws_closed_expanders_only_when_opened(router_mode):
    """The first load draws what is in view: the events as YAML, the up-front breakdown chart, how
    each tool was reached and the rules applied wait until their expander is opened (the YAML's
    syntax highlighting and a third chart cost the browser about a second on a first load); opened,
    they show the engine's figures, and closing the events expander keeps the edited events."""
    from toolsearch.analysis import charts
    from toolsearch.analysis.strategies import STRATEGY_SUMMARIES

    at = _page()
    events = load_events(SAMPLE_SKILLS / "events.yaml")
    m = StrategyModel(inspector_of([TEAM]), load_skills(SAMPLE_SKILLS), _sidebar_settings())
    task = task_from_events(events)
    results = m.results(task)
    assert not at.code and "strat_how" not in literal_tables(at)
    assert len(at.get("plotly_chart")) == 2  # the metrics and the timeline
    assert not [t for t in at.text if t.value.startswith(f"{results[0].label}: ")]
    _open_boxes(at)
    assert [c.value for c in at.code] == [dump_events(events).rstrip("\n")]
    charts_shown = [json.loads(c.proto.spec)["data"] for c in at.get("plotly_chart")]
    assert len(charts_shown) == 3
    breakdown = json.loads(charts.upfront_breakdown_figure(results, "chars4").to_json())["data"]
    assert charts_shown[1] == breakdown
    how = literal_tables(at)["strat_how"]
    assert how[["strategy", "tool", "round trips (count)"]].values.tolist() == [
        [r.label, t.tool, f"{t.round_trips:,}"] for r in results for t in r.per_tool]
    texts = [t.value for t in at.text]
    for r in results:
        assert f"{r.label}: {STRATEGY_SUMMARIES[r.strategy]}" in texts
    # the same table as before they were opened
    assert _shown_rows(at) == _expected_rows(results)


@pytest.mark.skipif(not (ROOT / "toolsearch" / "ui" / "strategies.py").exists(),
                    reason="the app has no Strategies page")
def test_page_shows_skill_files_relative_to_the_working_folder(router_mode, monkeypatch):
    monkeypatch.chdir(ROOT)
    at = _page()
    files = literal_tables(at)["strat_skill_links"]["file"].tolist()
    assert files == [f"sample_skills/{name}/SKILL.md" for name in load_skills(SAMPLE_SKILLS).names]
    assert len(files) >= 8 and not any(str(ROOT) in f for f in files)


def test_page_worked_example(router_mode):
    at = _page()
    at.radio(key="strat_source").set_value("Worked example").run()
    assert not at.exception
    m = StrategyModel(Inspector(load_source(SEED / "catalog.yaml")), load_skills(SEED / "skills"), _sidebar_settings())
    results = m.results(task_from_events(load_events(SEED / "task.yaml")))
    assert _shown_rows(at) == _expected_rows(results)
    rows = {row[0]: row[1:3] for row in _shown_rows(at)}
    assert rows["All up front"] == ["105,000", "109,000"] and rows["Skill-linked tools"] == ["5,000", "11,000"]
    metrics = {m.label: m.value for m in at.metric}
    # task figures, named as such: the table beside them shows the up-front figures under the same names
    assert metrics == {"All up front: task": "109,000", "Skill-linked tools: task": "11,000",
                       "Difference (all up front − skill-linked)": "98,000"}
    assert any(c.value.startswith("Task tokens (chars4)") for c in at.caption)  # the unit of the metrics
    bars = json.loads(at.get("plotly_chart")[0].proto.spec)["data"]
    assert [b["x"] for b in bars] == [[getattr(r, f) for r in results]
                                      for f in ("upfront_tokens", "task_tokens", "round_trips", "cache_breaks")]
    assert all(b["orientation"] == "h" and b["y"] == [r.label for r in results] for b in bars)  # names on the axis
    assert bars[0]["marker"]["color"] == ["#882255", "#332288", "#CC6677", "#2F8F80", "#AA4499", "#808020"]


@pytest.mark.skipif(not (ROOT / "toolsearch" / "ui" / "strategies.py").exists(),
                    reason="the app has no Strategies page")
def test_page_never_renders_skill_text_as_markup(router_mode, monkeypatch):
    import streamlit as st

    from toolsearch.analysis import skills as skills_module
    from toolsearch.analysis import strategies as strategies_module

    hostile = skills_from_texts([("evil.yaml", (
        "- name: <i>evil</i>\n  description: \"<script>alert(1)</script> **bold** [x](https://e.com)\"\n"
        "  include_tools: mcp__slack__slack_post_message\n  body: hi\n"))])
    monkeypatch.setattr(skills_module, "load_skills", lambda path: hostile)
    monkeypatch.setattr(strategies_module, "load_events",
                        lambda path: (Event("read_skill", "<i>evil</i>"), Event("call", "mcp__slack__slack_post_message")))
    st.cache_resource.clear()
    try:
        at = _page()
        _open_boxes(at)  # every chart and table drawn
        markup = " ".join(str(e.value) for kind in ("markdown", "caption", "info", "error") for e in getattr(at, kind))
        assert "<script>" not in markup and "<i>evil</i>" not in markup and "**bold**" not in markup
        skills_table = _table(at, "description")
        assert skills_table["description"].tolist() == ["<script>alert(1)</script> **bold** [x](https://e.com)"]
        tables_html = " ".join(h.value for h in at.html)  # escaped: shown as text, never run or rendered
        assert "<script>" not in tables_html and "<i>evil</i>" not in tables_html
        assert "&lt;script&gt;alert(" in tables_html and "&lt;/script&gt; **bold** [x](https://e.com)" in tables_html
        specs = " ".join(json.dumps(json.loads(c.proto.spec), ensure_ascii=False) for c in at.get("plotly_chart"))
        assert "<i>evil</i>" not in specs and "&lt;i&gt;evil&lt;/i&gt;" in specs
    finally:
        st.cache_resource.clear()


def test_page_says_when_no_loaded_skill_names_a_tool_of_the_catalog(router_mode):
    """The sample skills are written for the default catalog: on another catalog none of their
    include_tools exist, and the page says so instead of showing silent zeros."""
    at = _page()
    assert not [w for w in at.warning if "names a tool of this catalog" in w.value]
    at.sidebar.selectbox(key="catalog").set_value("cloudflare-flat").run()
    assert not at.exception, at.exception
    (warning,) = [w.value for w in at.warning if "names a tool of this catalog" in w.value]
    count = len(load_skills(ROOT / "sample_skills").skills)
    assert warning.startswith(f"None of the {count} loaded skills names a tool of this catalog")


def test_an_events_server_outside_the_session_scope_is_named_as_such(tmp_path):
    """``add_server``/``remove_server`` of a server the catalog has but the session scope does not
    reach: the error says it is outside the scope, not that the catalog has no such server."""
    events = tmp_path / "events.yaml"
    events.write_text("- {remove_server: github}\n", encoding="utf-8")
    args = ["strategies", TEAM, "--skills", SAMPLE_SKILLS, "--events", events, "--context-length", "200k",
            "--scope-file", ROOT / "sample_catalogs" / "scopes" / "team-workspace.yaml", "--scope", "oncall"]
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        f"toolsearch: error: {events}: [0].remove_server: server 'github' is outside the session scope 'oncall' "
        "(it reaches slack, sentry, grafana, core)")
    events.write_text("- {add_server: nosuch}\n", encoding="utf-8")
    done = run_cli(*args)
    assert done.returncode == 2 and "'nosuch' is not a server of this catalog" in done.stderr


def test_an_events_file_over_the_limit_is_refused_before_any_event_is_replayed(tmp_path, monkeypatch):
    """Each event is replayed under every strategy (6,000 took 35 s), so an uploaded file of
    60,000 events held the Strategies page for minutes. More than ``MAX_EVENTS`` is refused in
    one line, before any event is checked; a file at the limit is read."""
    from toolsearch.analysis import strategies
    from toolsearch.engine.errors import InputLimitError

    path = tmp_path / "events.yaml"
    path.write_text("".join(f"- {{search: q{i}}}\n" for i in range(strategies.MAX_EVENTS + 1)), encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    done = run_cli("strategies", root / "sample_catalogs" / "team-workspace.yaml", "--events", path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (f"toolsearch: error: {path}: 5,001 events, over the limit of 5,000 per timeline; keep the "
                           "events of one conversation\n")
    monkeypatch.setattr(strategies, "MAX_EVENTS", 2)
    with pytest.raises(InputLimitError):
        strategies.parse_events(["compaction", {"bogus": 1}, "compaction"], "e.yaml")  # the bad item is never reached
    assert len(strategies.parse_events(["compaction", {"search": "q"}], "e.yaml")) == 2

"""Scoped sessions (docs/reference.md §2 "the session's own tool list", §8, §9.2, §11;
docs/reference.md §25.1 patterns): engine, strategies and CLI.

Everything runs on small hand-made catalogs with exact expected results: the listing per scope,
in-scope and out-of-scope searches, describes and calls.
"""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

import pytest

from conftest import run_cli, write_yaml
from toolsearch.engine.bridge import to_wire
from toolsearch.engine.catalog import catalog_from_data
from toolsearch.engine.config import parse_config
from toolsearch.engine.inspector import Inspector
from toolsearch.engine.profile import default_profile
from toolsearch.engine.scopes import (PlatformRule, Scope, ScopeError, dump_scopes, join_escaped, parse_scope_arg,
                                      scope_notes, split_escaped,
                                      scopes_from_data, scopes_from_text, select_scopes)
from toolsearch.analysis.skills import Skill, SkillSet
from toolsearch.analysis.strategies import SKILL_LINKED, TIERED, Event, StrategyModel, StrategySettings, Task

P = default_profile()
ROOT = Path(__file__).resolve().parent.parent


def _schema(*props: str, required: list[str] | None = None) -> dict:
    schema: dict = {"type": "object", "properties": {p: {"type": "string"} for p in props}}
    if required is not None:
        schema["required"] = required
    return schema


CATALOG = {
    "name": "Hand-made scopes",
    "servers": [
        {"name": "linear", "tools": [
            {"name": "create_issue", "description": "Create a new issue in a team.",
             "inputSchema": _schema("title", "team", required=["title", "team"])},
            {"name": "list_issues", "description": "List issues in the workspace.", "inputSchema": _schema("query")},
            {"name": "delete_issue", "description": "Delete an issue for good.",
             "inputSchema": _schema("id", required=["id"])},
        ]},
        {"name": "slack", "tools": [
            {"name": "post_message", "description": "Post a message to a channel.",
             "inputSchema": _schema("channel", "text", required=["channel", "text"])},
        ]},
        {"name": "billing", "tools": [
            {"name": "refund_payment", "description": "Refund a customer payment.",
             "inputSchema": _schema("payment_id", required=["payment_id"])},
        ]},
        {"name": "core", "kind": "core", "tools": [
            {"name": "terminal", "description": "Run a shell command.",
             "inputSchema": _schema("command", required=["command"])},
        ]},
    ],
}
SUPPORT = Scope("support", servers=("slack", "linear"), exclude=("delete_*",))


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector(catalog_from_data(CATALOG, "hand-made.yaml"))


@pytest.fixture
def catalog_file(tmp_path: Path) -> Path:
    return write_yaml(tmp_path / "hand-made.yaml", CATALOG)


def _wire_params(*props: str, required: list[str]) -> dict:
    return {"type": "object", "properties": {p: {"type": "string"} for p in props}, "required": required}


# --- parsing ---------------------------------------------------------------------------------

def test_parse_scope_arg_forms():
    assert parse_scope_arg("support=slack,linear") == Scope("support", servers=("slack", "linear"), origin="--scope")
    assert parse_scope_arg("all=*").servers is None
    assert parse_scope_arg("nothing=").servers == ()
    ro = parse_scope_arg("ro=linear, slack;exclude=delete_*,create_*")
    assert (ro.servers, ro.include, ro.exclude) == (("linear", "slack"), None, ("delete_*", "create_*"))
    only = parse_scope_arg("reader=linear;include=list_*")
    assert (only.include, only.exclude) == (("list_*",), ())


@pytest.mark.parametrize("text, message", [
    ("support", "--scope 'support': expected NAME=SERVER,SERVER (e.g. support=slack,linear)"),
    ("=slack", "--scope '=slack': expected a non-empty scope name"),
    ("a=slack;only=x", "--scope 'a=slack;only=x': expected ';include=PATTERN,...' or ';exclude=PATTERN,...' "
                       "after the servers, got 'only=x'"),
])
def test_parse_scope_arg_errors(text, message):
    with pytest.raises(ScopeError) as info:
        parse_scope_arg(text)
    assert str(info.value) == message


def test_scope_file_mapping_list_and_bad_entries():
    scopes, problems = scopes_from_data({"scopes": {
        "support": {"servers": ["slack", "linear"], "exclude": "delete_*", "description": "Support bot"},
        "everything": None,
        "broken": {"servers": 3},
        "typo": {"server": ["slack"]},
    }}, "scopes.yaml")
    assert [s.name for s in scopes] == ["support", "everything"]
    assert scopes[0] == Scope("support", ("slack", "linear"), None, ("delete_*",), "Support bot", "scopes.yaml: scopes.support")
    assert scopes[1].servers is None
    assert [(p.severity, p.where, p.message) for p in problems] == [
        ("error", "scopes.yaml: scopes.broken.servers",
         "expected a list of server names (or one string), got a whole number; scope skipped"),
        ("error", "scopes.yaml: scopes.typo",
         "unknown key 'server' (expected servers, include, exclude, description); scope skipped"),
    ]
    listed, problems = scopes_from_data({"scopes": [{"name": "a", "servers": "slack"}, {"name": "a"}]}, "s.yaml")
    assert [s.servers for s in listed] == [("slack",)]
    assert problems[0].message == "scope 'a' is already defined at s.yaml: scopes[0]; this one is skipped"


def test_scope_file_errors_name_file_and_place():
    with pytest.raises(ScopeError, match=r"^s\.yaml: top level: expected a 'scopes' key"):
        scopes_from_data({"servers": []}, "s.yaml")
    with pytest.raises(ScopeError, match=r"^s\.yaml: scopes: expected a mapping of scope names"):
        scopes_from_data({"scopes": 3}, "s.yaml")
    with pytest.raises(ScopeError, match=r"^s\.yaml: line 2, column 1: not valid YAML"):
        scopes_from_text("scopes: [\n", "s.yaml")


def test_dump_scopes_round_trip():
    text = dump_scopes([SUPPORT, Scope("all")])
    scopes, problems = scopes_from_text(text, "dump.yaml")
    assert problems == []
    assert [(s.name, s.servers, s.include, s.exclude) for s in scopes] == [
        ("support", ("slack", "linear"), None, ("delete_*",)), ("all", None, None, ())]


def test_select_scopes_by_name():
    file_scopes = [Scope("a", ("slack",)), Scope("b", ("linear",))]
    assert [s.name for s in select_scopes([], file_scopes, [])] == ["a", "b"]
    assert [s.name for s in select_scopes([Scope("c")], file_scopes, ["b"])] == ["c", "b"]
    with pytest.raises(ScopeError, match=r"^--scope z: no scope of that name in the scope file \(scopes: a, b\)$"):
        select_scopes([], file_scopes, ["z"])
    with pytest.raises(ScopeError, match="scope 'a' is defined twice"):
        select_scopes([Scope("a")], file_scopes, ["a"])


# --- the session's tool list -------------------------------------------------------------------

def test_session_tools_per_scope(inspector):
    def names(scope):
        return [t.name for t in inspector.scoped(scope).registration.tools]
    assert names(SUPPORT) == ["mcp__linear__create_issue", "mcp__linear__list_issues", "mcp__slack__post_message"]
    assert names(Scope("toolset", servers=("mcp-billing", "core"))) == ["mcp__billing__refund_payment", "terminal"]
    assert names(Scope("readers", servers=None, include=("list_*", "mcp__slack__*"))) == [
        "mcp__linear__list_issues", "mcp__slack__post_message"]
    assert names(Scope("nothing", servers=())) == []
    assert names(Scope("glob", servers=("*i*",))) == [
        "mcp__billing__refund_payment", "mcp__linear__create_issue", "mcp__linear__delete_issue",
        "mcp__linear__list_issues"]
    # include wins over exclude (docs/reference.md §25.1)
    assert names(Scope("both", servers=("linear",), include=("delete_issue",), exclude=("delete_issue",))) == [
        "mcp__linear__delete_issue"]


def test_scoped_inspector_is_cached_and_shares_the_registry(inspector):
    scoped = inspector.scoped(SUPPORT)
    assert inspector.scoped(SUPPORT) is scoped
    assert scoped.scoped(None) is inspector and inspector.scoped(None) is inspector
    assert scoped.full_registration is inspector.registration
    assert [s.name for s in scoped.catalog.servers] == ["linear", "slack"]
    assert scoped.scoped(Scope("b", ("billing",))) is inspector.scoped(Scope("b", ("billing",)))


def test_a_misspelt_scope_server_gets_the_nearest_name(inspector):
    """A typo in a scope's server list was only "not in the catalog": the session then sees fewer
    servers than meant, and the name it was meant to be is said too."""
    scope = Scope("s", servers=("slak", "Linear", "zzz", "sla*"))
    assert scope_notes(scope, inspector.registration) == [
        "scope 's': server 'slak' is not in the catalog; did you mean 'slack'?",
        "scope 's': server 'Linear' is not in the catalog; did you mean 'linear'?",
        "scope 's': server 'zzz' is not in the catalog",
    ]


def test_scope_notes(inspector):
    scope = Scope("odd", servers=("slack", "jira"), include=("post_*", "nothing_*"))
    assert scope_notes(scope, inspector.registration) == [
        "scope 'odd': server 'jira' is not in the catalog",
        "scope 'odd': include pattern 'nothing_*' matches no tool of its servers",
    ]


def test_listing_and_plan_per_scope(inspector):
    config = parse_config({})
    plan = inspector.scoped(SUPPORT).plan(config, 200_000)
    assert (plan.activated, plan.tier, plan.listing_form, plan.deferred_count, plan.visible_count) == (True, 1, "full", 3, 0)
    assert plan.listing == "\n".join([
        P.text("listing", "header"),
        "linear tools (2):",
        "- mcp__linear__create_issue: Create a new issue in a team.",
        "- mcp__linear__list_issues: List issues in the workspace.",
        "slack tools (1):",
        "- mcp__slack__post_message: Post a message to a channel.",
    ])
    assert [(s.name, s.tool_count, s.state) for s in plan.servers] == [("linear", 2, "full"), ("slack", 1, "full")]
    assert [t["function"]["name"] for t in plan.tools] == ["tool_search", "tool_describe", "tool_call"]
    assert P.text("tool_search", "description", count=3) in plan.tool_search_description

    admin = inspector.scoped(Scope("admin", ("billing", "core"))).plan(config, 200_000)
    assert [t["function"]["name"] for t in admin.tools] == ["terminal", "tool_search", "tool_describe", "tool_call"]
    assert [(s.name, s.state) for s in admin.servers] == [("billing", "full"), ("core", "visible")]
    assert admin.deferred_count == 1

    core_only = inspector.scoped(Scope("shell", ("core",))).plan(config, 200_000)
    assert (core_only.activated, core_only.tier, core_only.listing_form) == (False, 0, "none")
    assert [t["function"]["name"] for t in core_only.tools] == ["terminal"]


# --- bridge per scope ----------------------------------------------------------------------------

def test_search_cannot_return_out_of_scope_tools(inspector):
    bridge = inspector.scoped(SUPPORT).bridge(parse_config({}))
    response = bridge.tool_search({"queries": ["delete issue", "linear issue"]})
    sources = [{"name": "linear", "tool_count": 2}, {"name": "slack", "tool_count": 1}]
    assert to_wire(response) == to_wire({
        "queries": ["delete issue", "linear issue"], "total_available": 3,
        "results": [
            {"query": "delete issue", "matches": [], "available_sources": sources,
             "hint": P.text("hints", "search_empty")},
            {"query": "linear issue", "matches": ["mcp__linear__list_issues", "mcp__linear__create_issue"]},
        ],
        "tools": {
            "mcp__linear__list_issues": {"source": "mcp", "source_name": "mcp-linear",
                                         "description": "List issues in the workspace.", "required": []},
            "mcp__linear__create_issue": {"source": "mcp", "source_name": "mcp-linear",
                                          "description": "Create a new issue in a team.", "required": ["title", "team"]},
        },
    })
    # the whole catalog finds both
    whole = inspector.bridge(parse_config({})).tool_search({"queries": ["delete issue", "refund customer payment"]})
    assert [group["matches"] for group in whole["results"]] == [["mcp__linear__delete_issue"],
                                                                ["mcp__billing__refund_payment"]]
    assert bridge.tool_search({"queries": ["refund customer payment"]})["results"][0]["matches"] == []


def test_describe_in_and_out_of_scope(inspector):
    bridge = inspector.scoped(SUPPORT).bridge(parse_config({}))
    response = bridge.tool_describe({"names": ["mcp__linear__create_issue", "mcp__billing__refund_payment",
                                               "mcp__linear__delete_issue", "terminal", "mcp__bogus__missing"]})
    assert to_wire(response) == to_wire({
        "tools": {"mcp__linear__create_issue": {
            "description": "Create a new issue in a team.",
            "parameters": _wire_params("title", "team", required=["title", "team"])}},
        "not_found": ["mcp__billing__refund_payment", "mcp__linear__delete_issue", "mcp__bogus__missing"],
        "hint": P.text("hints", "describe_not_found"),
        "errors": {"terminal": P.text("errors", "not_in_session", name="terminal")},
    })
    # In a scope that has the core tool, describing it says "call it directly" instead.
    admin = inspector.scoped(Scope("admin", ("billing", "core"))).bridge(parse_config({}))
    assert admin.tool_describe({"names": ["terminal"]}) == {
        "tools": {}, "errors": {"terminal": P.text("errors", "not_deferrable", name="terminal")}}


def test_call_in_and_out_of_scope(inspector):
    bridge = inspector.scoped(SUPPORT).bridge(parse_config({}))

    def call(name, arguments=None):
        return bridge.tool_call({"calls": [{"name": name, "arguments": arguments or {}}]})

    assert call("mcp__billing__refund_payment") == {"error": P.text("errors", "out_of_scope", name="mcp__billing__refund_payment")}
    assert call("mcp__linear__delete_issue", {"id": "x"}) == {
        "error": P.text("errors", "out_of_scope", name="mcp__linear__delete_issue")}
    assert call("terminal", {"command": "ls"}) == {"error": P.text("errors", "not_in_session", name="terminal")}
    # an unknown short name: the registry (the whole catalog) suggests full names, as in the reference
    assert call("refund_payment") == {"error": P.text("errors", "unknown_tool", name="refund_payment") + " "
                                      + P.text("errors", "did_you_mean", candidates="'mcp__billing__refund_payment'")}
    assert call("mcp__linear__create_issue", {"title": "T"})["constraint"] == "required"
    assert call("mcp__slack__post_message", {"channel": "c", "text": "hi"}) == {"dispatch": {
        "name": "mcp__slack__post_message", "server": "slack", "tool": "post_message",
        "arguments": {"channel": "c", "text": "hi"}}}


def test_rb13_case63_mixed_batch_through_a_scope():
    """docs/reference.md §13 case 63: MQ plus mq_out_of_scope_op registered in mcp:mq-elsewhere, outside the session."""
    catalog = catalog_from_data({"servers": [
        {"name": "mq-linear", "tools": [
            {"name": "mq_linear_create_issue", "description": "Create a new issue in a team.",
             "inputSchema": _schema("title", "team", required=["title", "team"])},
            {"name": "mq_linear_list_issues", "description": "List issues in the workspace.",
             "inputSchema": _schema("query")}]},
        {"name": "mq-slack", "tools": [
            {"name": "mq_slack_post_message", "description": "Post a message to a channel.",
             "inputSchema": _schema("channel", "text", required=["channel", "text"])}]},
        {"name": "mq-elsewhere", "tools": [
            {"name": "mq_out_of_scope_op", "description": "Elsewhere.", "inputSchema": _schema()}]},
    ]}, "mq.yaml")
    session = Inspector(catalog, "as-is").scoped(Scope("mq", ("mq-linear", "mq-slack")))
    response = session.bridge(parse_config({})).tool_describe({"names": [
        "mq_linear_create_issue", "mq_slack_post_message", "mq_out_of_scope_op", "mcp__bogus__missing"]})
    assert to_wire(response) == to_wire({
        "tools": {
            "mq_linear_create_issue": {"description": "Create a new issue in a team.",
                                       "parameters": _wire_params("title", "team", required=["title", "team"])},
            "mq_slack_post_message": {"description": "Post a message to a channel.",
                                      "parameters": _wire_params("channel", "text", required=["channel", "text"])},
        },
        "not_found": ["mq_out_of_scope_op", "mcp__bogus__missing"],
        "hint": P.text("hints", "describe_not_found"),
    })
    assert session.bridge(parse_config({})).tool_search({"queries": ["mq_out_of_scope_op"]})["results"][0]["matches"] == []


# --- Hermes platform_toolsets --------------------------------------------------------------------

HERMES_CONFIG = {
    "mcp_servers": {"linear": {"command": "x"}, "slack": {"command": "y"}, "billing": {"command": "z", "enabled": False}},
    "agent": {"disabled_toolsets": ["slack"]},
    "platform_toolsets": {
        "cli": ["hermes-cli"],
        "telegram": ["hermes-telegram", "slack"],
        "webhook": ["no_mcp"],
        "api_server": ["mcp-linear", "web"],
        "broken": "hermes-cli",
    },
}


def test_hermes_platform_toolsets_become_scopes(inspector):
    scopes, problems = scopes_from_data(HERMES_CONFIG, "config.yaml")
    assert [s.name for s in scopes] == ["cli", "telegram", "webhook", "api_server"]
    assert scopes[0].platform == PlatformRule(("hermes-cli",), ("slack",), ("billing",))
    assert [(p.severity, p.where, p.message) for p in problems] == [
        ("error", "config.yaml: platform_toolsets.broken", "expected a list of toolset names, got a string; platform skipped")]
    reach = {s.name: sorted(inspector.scoped(s).registration.server_kinds) for s in scopes}
    assert reach == {"cli": ["core", "linear"], "telegram": ["core"], "webhook": ["core"], "api_server": ["core", "linear"]}


def test_hermes_platform_default_reaches_every_enabled_mcp_server(inspector):
    scopes, _ = scopes_from_data({"platform_toolsets": {"cli": ["hermes-cli"]}}, "config.yaml")
    assert sorted(inspector.scoped(scopes[0]).registration.server_kinds) == ["billing", "core", "linear", "slack"]


# --- strategies: the skill-linked resolver rule ---------------------------------------------------------

def test_skill_linked_tools_outside_the_scope_are_not_disclosed(inspector):
    skills = SkillSet((Skill("triage", "Triage tickets.", include_tools=(
        "mcp__linear__create_issue", "mcp__billing__refund_payment"), body="Body.", origin="triage/SKILL.md"),))
    whole = StrategyModel(inspector, skills, StrategySettings())
    scoped = StrategyModel(inspector.scoped(SUPPORT), skills, StrategySettings())
    assert whole.links["triage"] == ("mcp__linear__create_issue", "mcp__billing__refund_payment")
    assert scoped.links["triage"] == ("mcp__linear__create_issue",)
    assert scoped.withheld == {"triage": ("mcp__billing__refund_payment",)}
    assert [(p.severity, p.message) for p in scoped.problems] == [
        ("info", "scope 'support' does not allow mcp__billing__refund_payment: reading skill 'triage' does not "
                 "disclose it in this session")]
    events = [Event("read_skill", "triage"), Event("call", "mcp__billing__refund_payment"),
              Event("call", "mcp__linear__create_issue")]
    scoped.check_events(events)
    steps = scoped.timeline(events, (SKILL_LINKED, TIERED))
    read = steps[1].state(SKILL_LINKED)
    assert read.message.endswith("1 tool unlocked, appended to tools (" + f"{scoped.tool_tokens['mcp__linear__create_issue']:,}"
                                 + " tokens); scope support withholds mcp__billing__refund_payment (not disclosed)")
    assert (steps[2].state(SKILL_LINKED).outcome, steps[2].state(SKILL_LINKED).message) == (
        "failed", "mcp__billing__refund_payment is outside scope support: not available in this session")
    assert steps[2].state(TIERED).outcome == "failed"
    assert steps[3].state(SKILL_LINKED).outcome == "ok"
    assert "mcp__billing__refund_payment" not in steps[1].state(SKILL_LINKED).callable
    # without the scope, the same read unlocks both tools
    whole_read = whole.timeline(events[:1], (SKILL_LINKED,))[1].state(SKILL_LINKED)
    assert whole_read.message.endswith("2 tools unlocked, appended to tools ("
                                       + f"{whole.tool_tokens['mcp__linear__create_issue'] + whole.tool_tokens['mcp__billing__refund_payment']:,}"
                                       + " tokens)")
    result = scoped.result(SKILL_LINKED, Task(("triage",), ("mcp__billing__refund_payment",)))
    assert result.per_tool[0].to_dict() == {
        "tool": "mcp__billing__refund_payment", "round_trips": 0, "steps": [], "via": "outside the scope",
        "called": False, "message": "mcp__billing__refund_payment is outside scope support: not available in this session"}


# --- CLI ----------------------------------------------------------------------------------------------

def test_cli_plan_json_names_the_scope(catalog_file):
    result = run_cli("plan", catalog_file, "--scope", "support=slack,linear;exclude=delete_*", "--context-length", "200k",
                     "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["scope"] == {"name": "support", "servers": ["slack", "linear"], "include": None,
                             "exclude": ["delete_*"], "origin": "--scope", "reachable_servers": ["linear", "slack"],
                             "session_tools": 3, "catalog_tools": 6}
    assert (data["tier"], data["listing_form"], data["deferred_count"]) == (1, "full", 3)
    assert [s["name"] for s in data["servers"]] == ["linear", "slack"]


def test_cli_plan_several_scopes(catalog_file):
    args = ("plan", catalog_file, "--scope", "support=slack,linear", "--scope", "admin=billing,core",
            "--context-length", "200k")
    data = json.loads(run_cli(*args, "--json").stdout)
    assert [(d["scope"]["name"], d["deferred_count"], d["visible_count"], [s["name"] for s in d["servers"]])
            for d in data] == [("support", 4, 0, ["linear", "slack"]), ("admin", 1, 1, ["billing", "core"])]
    text = run_cli(*args).stdout
    assert "======== scope support ========" in text and "======== scope admin ========" in text
    table = text.split("scopes side by side:\n", 1)[1].splitlines()
    assert table[0].split() == ["scope", "tier", "form", "budget", "tools", "array", "with", "tool", "search", "tools",
                                "servers"]
    assert table[2].split()[:3] == ["support", "1", "full"] and table[2].endswith("4/6    linear, slack")
    assert table[3].split()[:3] == ["admin", "1", "full"] and table[3].endswith("2/6    billing, core")


def test_cli_search_describe_call_in_a_scope(catalog_file):
    scope = ("--scope", "support=slack,linear")
    search = run_cli("search", catalog_file, "-q", "refund payment", *scope, "--json")
    assert search.returncode == 0
    assert json.loads(search.stdout)["results"][0]["matches"] == []
    assert search.stderr == ("toolsearch: scope support: servers slack, linear (reaches linear, slack); "
                             "4 of 6 tools in the session\n")
    describe = run_cli("describe", catalog_file, "mcp__billing__refund_payment", "mcp__slack__post_message", *scope, "--json")
    assert describe.returncode == 1  # a name outside the scope is not found
    assert json.loads(describe.stdout) == {
        "tools": {"mcp__slack__post_message": {"description": "Post a message to a channel.",
                                               "parameters": _wire_params("channel", "text", required=["channel", "text"])}},
        "not_found": ["mcp__billing__refund_payment"], "hint": P.text("hints", "describe_not_found")}
    call = run_cli("call", catalog_file, "mcp__billing__refund_payment", "-a", '{"payment_id": "p1"}', *scope, "--json")
    assert call.returncode == 1
    assert json.loads(call.stdout) == {"error": P.text("errors", "out_of_scope", name="mcp__billing__refund_payment")}
    text = run_cli("search", catalog_file, "-q", "post message", *scope)
    assert text.stdout.splitlines()[0] == ("scope support: servers slack, linear (reaches linear, slack); "
                                           "4 of 6 tools in the session")


def test_cli_one_session_commands_need_one_scope(catalog_file):
    result = run_cli("search", catalog_file, "-q", "x", "--scope", "a=slack", "--scope", "b=linear")
    assert result.returncode == 2
    assert result.stderr == ("toolsearch: error: search answers for one session: pick one scope with --scope NAME "
                             "(scopes in use: a, b)\n")


def test_cli_scope_file_selection_and_errors(catalog_file, tmp_path):
    scope_file = write_yaml(tmp_path / "scopes.yaml", {"scopes": {
        "support": {"servers": ["slack", "linear"], "exclude": ["delete_*"]},
        "finance": {"servers": ["billing"]},
        "bad": {"servers": {"a": 1}},
    }})
    picked = run_cli("describe", catalog_file, "mcp__billing__refund_payment", "--scope-file", scope_file,
                     "--scope", "finance", "--json")
    assert picked.returncode == 0, picked.stderr
    assert list(json.loads(picked.stdout)["tools"]) == ["mcp__billing__refund_payment"]
    assert (f"toolsearch: scope file error: {scope_file}: scopes.bad.servers: expected a list "
            "of server names (or one string), got a mapping; scope skipped\n") in picked.stderr
    both = json.loads(run_cli("plan", catalog_file, "--scope-file", scope_file, "--json").stdout)
    assert [d["scope"]["name"] for d in both] == ["support", "finance"]
    unknown = run_cli("plan", catalog_file, "--scope-file", scope_file, "--scope", "nope")
    assert unknown.returncode == 2
    assert unknown.stderr.endswith("toolsearch: error: --scope nope: no scope of that name in the scope file "
                                   "(scopes: support, finance)\n")
    missing = run_cli("plan", catalog_file, "--scope-file", tmp_path / "missing.yaml")
    assert missing.returncode == 2 and missing.stderr.startswith(f"toolsearch: error: {tmp_path / 'missing.yaml'}: cannot read")
    bare = run_cli("plan", catalog_file, "--scope", "support")
    assert bare.returncode == 2
    assert "--scope support: expected NAME=SERVER,SERVER (or give --scope-file FILE" in bare.stderr
    typo = run_cli("plan", catalog_file, "--scope", "s=slak", "--json")
    assert typo.returncode == 0
    assert "toolsearch: warning: scope 's': server 'slak' is not in the catalog; did you mean 'slack'?" in typo.stderr


def test_cli_hermes_config_as_scope_file(catalog_file, tmp_path):
    config = write_yaml(tmp_path / "config.yaml", HERMES_CONFIG)
    data = json.loads(run_cli("plan", catalog_file, "--scope-file", config, "--json").stdout)
    assert [(d["scope"]["name"], d["scope"]["reachable_servers"]) for d in data] == [
        ("cli", ["core", "linear"]), ("telegram", ["core"]), ("webhook", ["core"]), ("api_server", ["core", "linear"])]


def test_cli_sweep_rows_name_the_scope(catalog_file):
    result = run_cli("sweep", catalog_file, "--scope", "support=slack", "--scope", "admin=billing,core",
                     "--context-lengths", "8k", "--threshold-pcts", "5", "--json")
    rows = json.loads(result.stdout)
    assert [(r["scope"], r["tier"], r["listing_form"], r["states"]) for r in rows] == [
        ("support", 1, "full", {"slack": "full"}), ("admin", 1, "full", {"billing": "full", "core": "visible"})]
    csv = run_cli("sweep", catalog_file, "--scope", "support=slack", "--context-lengths", "8k", "--threshold-pcts", "5",
                  "--csv").stdout.splitlines()
    assert csv[0] == "scope,context_length,threshold_pct,listing_max_tokens,budget,tier,listing_form,listing_tokens,slack"
    assert csv[1].startswith("support,8000,5,4000,400,1,full,")


def test_cli_strategies_with_a_scope(catalog_file, tmp_path):
    skill = tmp_path / "skills" / "triage"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: triage\ndescription: Triage tickets.\nmetadata:\n  include_tools: "
                                    "mcp__linear__create_issue mcp__billing__refund_payment\n---\nBody.\n", encoding="utf-8")
    events = write_yaml(tmp_path / "events.yaml", [{"read_skill": "triage"}, {"call": "mcp__billing__refund_payment"}])
    result = run_cli("strategies", catalog_file, "--skills", tmp_path / "skills", "--events", events,
                     "--scope", "support=slack,linear", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    linked = next(d for d in data if d["strategy"] == "skill_linked")
    assert linked["scope"]["name"] == "support"
    assert linked["timeline"][1]["message"].endswith("scope support withholds mcp__billing__refund_payment (not disclosed)")
    assert (linked["timeline"][2]["outcome"], linked["timeline"][2]["message"]) == (
        "failed", "mcp__billing__refund_payment is outside scope support: not available in this session")
    two = run_cli("strategies", catalog_file, "--scope", "a=slack", "--scope", "b=linear")
    assert two.returncode == 2 and "strategies answers for one session" in two.stderr


# --- scopes side by side --------------------------------------------------------------------------------

def test_compare_scopes_reach_matrix_and_probe(inspector):
    from toolsearch.analysis.scope_compare import compare_scopes, probe_tool, reach_matrix

    config = parse_config({})
    admin = Scope("admin", ("billing", "core"))
    rows = compare_scopes(inspector, [None, SUPPORT, admin], config, 200_000)
    plans = [inspector.scoped(s).plan(config, 200_000) for s in (None, SUPPORT, admin)]
    assert [r.to_dict() for r in rows] == [{
        "scope": name, "servers": servers, "session_tools": tools, "catalog_tools": 6, "deferred": deferred,
        "visible": visible, "tier": 1, "listing_form": "full", "budget": 4000, "listing_tokens": plan.listing_tokens,
        "tokens_per_request": plan.tools_tokens, "eager_tokens": plan.eager_tokens,
    } for (name, servers, tools, deferred, visible), plan in zip(
        [(None, ["billing", "core", "linear", "slack"], 6, 5, 1), ("support", ["linear", "slack"], 3, 3, 0),
         ("admin", ["billing", "core"], 2, 1, 1)], plans)]
    assert rows[1].tokens_per_request < rows[0].tokens_per_request

    assert reach_matrix(inspector, [SUPPORT, admin]) == {
        "support": {"billing": (0, 1), "core": (0, 1), "linear": (2, 3), "slack": (1, 1)},
        "admin": {"billing": (1, 1), "core": (1, 1), "linear": (0, 3), "slack": (0, 1)},
    }

    probes = probe_tool(inspector, [None, SUPPORT, admin], "mcp__billing__refund_payment", config)
    assert [p.to_dict() for p in probes] == [
        {"scope": None, "in_session": True, "found_by_name": True, "describe": "schema",
         "call": "would run (through tool_call)"},
        {"scope": "support", "in_session": False, "found_by_name": False, "describe": "not found",
         "call": P.text("errors", "out_of_scope", name="mcp__billing__refund_payment")},
        {"scope": "admin", "in_session": True, "found_by_name": True, "describe": "schema",
         "call": "would run (through tool_call)"},
    ]
    terminal = probe_tool(inspector, [SUPPORT, admin], "terminal", config)
    assert [(p.in_session, p.describe, p.call) for p in terminal] == [
        (False, P.text("errors", "not_in_session", name="terminal"), P.text("errors", "not_in_session", name="terminal")),
        (True, P.text("errors", "not_deferrable", name="terminal"), P.text("errors", "not_deferrable", name="terminal")),
    ]


def test_scope_to_arg_round_trips():
    for scope in (SUPPORT, Scope("all"), Scope("none", ()), Scope("ro", ("linear",), include=("list_*", "get_*"))):
        back = parse_scope_arg(scope.to_arg())
        assert (back.name, back.servers, back.include, back.exclude) == (scope.name, scope.servers, scope.include,
                                                                         scope.exclude)
    assert Scope("cli", platform=PlatformRule(("hermes-cli",))).to_arg() is None


def test_cli_sample_scope_file_design_review_example():
    """docs/scopes.md's design-review example, run as a user would."""
    root = Path(__file__).resolve().parent.parent
    catalog = root / "sample_catalogs" / "team-workspace.yaml"
    scope_file = root / "sample_catalogs" / "scopes" / "team-workspace.yaml"
    result = run_cli("plan", catalog, "--context-length", "32k", "--scope-file", scope_file, "--json")
    assert result.returncode == 0 and result.stderr == ""
    data = json.loads(result.stdout)
    assert [(d["scope"]["name"], d["scope"]["session_tools"], d["scope"]["reachable_servers"], d["tier"],
             d["listing_form"]) for d in data] == [
        ("code-review", 51, ["core", "filesystem", "github"], 1, "full"),
        ("support", 61, ["linear", "notion", "slack"], 1, "full"),
        ("oncall", 61, ["core", "grafana", "sentry", "slack"], 1, "full"),
    ]
    whole = json.loads(run_cli("plan", catalog, "--context-length", "32k", "--json").stdout)
    assert (whole["listing_form"], len(whole["servers"])) == ("names", 9)
    assert all(d["tools_tokens"] < whole["tools_tokens"] for d in data)
    call = run_cli("call", catalog, "mcp__github__create_issue", "-a", '{"title": "x"}', "--scope-file", scope_file,
                   "--scope", "support", "--json")
    assert call.returncode == 1
    assert json.loads(call.stdout) == {"error": P.text("errors", "out_of_scope", name="mcp__github__create_issue")}


def test_report_names_the_session_scope(inspector):
    from toolsearch.analysis.report import build_report

    html = build_report(inspector.scoped(SUPPORT), parse_config({}), 200_000)
    assert "<td>session scope</td><td>support: servers slack, linear; exclude delete_* (3 of 6 tools)</td>" in html
    assert "session scope" not in build_report(inspector, parse_config({}), 200_000)


def test_cli_recommend_answers_for_the_scope(catalog_file):
    from toolsearch.analysis.recommend import recommend_for_contexts
    from toolsearch.engine.scopes import parse_scope_arg
    from toolsearch.analysis.sweep import listing_ladder

    scope_arg = "support=slack,linear"
    result = run_cli("recommend", catalog_file, "--scope", scope_arg, "--context-lengths", "32k,200k",
                     "--goal", "full", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["scope"]["name"] == "support" and data["scope"]["reachable_servers"] == ["linear", "slack"]
    session = Inspector.from_files([catalog_file]).scoped(parse_scope_arg(scope_arg))
    config = parse_config({})
    expected = recommend_for_contexts(listing_ladder(session.planner, config, "chars4"), config,
                                      [32_000, 200_000], "full")
    assert (data["threshold_pct"], data["listing_max_tokens"]) == (expected.threshold_pct, expected.listing_max_tokens)
    whole = json.loads(run_cli("recommend", catalog_file, "--context-lengths", "32k,200k", "--goal", "full",
                               "--json").stdout)
    assert "scope" not in whole
    # the scope lists fewer tools, so its full listing is smaller
    assert whole["contexts"][0]["listing_tokens"] > data["contexts"][0]["listing_tokens"]


@pytest.mark.parametrize("names", [
    ("eu,west", "plain"), ("a;b", "c"), ("back\\slash",), ("ends\\",), ("\\,",), ("", "x"), (",;\\",),
])
def test_lists_with_separators_in_names_round_trip(names):
    """A server name holding ``,``, ``;`` or ``\\`` survives a ``--scope`` value and a link's list:
    it is written with a backslash before each such character and read back as it was."""
    assert split_escaped(join_escaped(names)) == list(names)
    scope = Scope("s", tuple(n for n in names if n), exclude=("x,y*",))
    back = parse_scope_arg(scope.to_arg())
    assert (back.servers, back.exclude) == (scope.servers, scope.exclude), scope.to_arg()
    # a backslash before any other character is kept as typed (old values read as before)
    assert parse_scope_arg(r"s=C:\tools,x").servers == (r"C:\tools", "x")


def test_cli_scope_names_a_server_whose_name_holds_a_comma(tmp_path):
    """``--scope 'eu=eu\\,west'`` reaches the server ``eu,west`` (not two servers ``eu`` and ``west``),
    and the JSON names it as it is."""
    data = {"name": "Commas", "servers": [
        {"name": "eu,west", "tools": [{"name": "list_regions", "description": "List the regions.",
                                        "inputSchema": _schema("zone")}]},
        {"name": "us", "tools": [{"name": "list_zones", "description": "List the zones.",
                                   "inputSchema": _schema("region")}]}]}
    path = write_yaml(tmp_path / "commas.yaml", data)
    result = run_cli("plan", path, "--scope", r"eu=eu\,west", "--context-length", "200k", "--json")
    assert result.returncode == 0, result.stderr
    scope = json.loads(result.stdout)["scope"]
    assert (scope["servers"], scope["reachable_servers"], scope["session_tools"]) == (["eu,west"], ["eu,west"], 1)


def test_a_scope_with_too_many_wildcard_patterns_is_refused_in_one_line(tmp_path):
    """Each wildcard pattern is tried on every tool name on every plan, and a link carries a
    scope: 9,000 patterns (a 60 KB link) kept a 3,300-tool catalog busy for a minute per plan.
    Over the limit, the flag and the scope file are one line naming the list; exact names are
    not limited, and a list at the limit still matches as fnmatch does."""
    from toolsearch.engine import constants as C  # noqa: PLC0415
    from toolsearch.engine.scopes import matches  # noqa: PLC0415

    over = ",".join(f"x{i}*" for i in range(C.SCOPE_MAX_PATTERNS + 1))
    result = run_cli("plan", ROOT / "sample_catalogs" / "five-servers.yaml", "--scope", f"ro=*;exclude={over}")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr == (f"toolsearch: error: --scope 'ro': exclude: {C.SCOPE_MAX_PATTERNS + 1:,} patterns with "
                             f"wildcards (*, ? or [), over the limit of {C.SCOPE_MAX_PATTERNS} in one list; "
                             "not read\n")
    path = write_yaml(tmp_path / "scopes.yaml", {"scopes": {"ro": {"servers": over.split(",")}}})
    result = run_cli("plan", ROOT / "sample_catalogs" / "five-servers.yaml", "--scope-file", path)
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert "scopes.ro.servers: 257 patterns with wildcards (*, ? or [), over the limit of 256 in one list; not read" \
        in result.stderr, result.stderr
    exact = parse_scope_arg("ro=" + ",".join(f"s{i}" for i in range(5000)))
    assert len(exact.servers) == 5000
    at_limit = parse_scope_arg("ro=*;exclude=" + ",".join(["a?c", "[!x]*q", "*del*"] +
                                                          [f"x{i}*" for i in range(C.SCOPE_MAX_PATTERNS - 3)]))
    for name in ("abc", "aq", "undelete", "x12", "x12y", "abcd", "xq", "x", "delete_issue"):
        assert matches(name, at_limit.exclude) == any(fnmatch.fnmatchcase(name, p) for p in at_limit.exclude), name
    security = " ".join((ROOT / "docs" / "security.md").read_text(encoding="utf-8").split())
    assert f"holds at most {C.SCOPE_MAX_PATTERNS} patterns with wildcards" in security

"""The shipped default profile has the reference harness's wording lengths (the character counts of
its header, summary and bridge texts), so every chars4 figure equals the reference's, and the
conformance figures of docs/reference.md §13 that depend on the wording hold as absolute numbers.

Every expected number here is derived from the reference's published lengths and the line patterns
of docs/reference.md §5.3 by hand (the arithmetic is in the comments), never from the engine's own
output. A user's own profile is free to differ.
"""

from __future__ import annotations

import json

import pytest

from conftest import registration
from toolsearch.engine.bridge import Bridge
from toolsearch.engine.config import parse_config
from toolsearch.engine.plan import Planner, bridge_definitions, tool_search_description
from toolsearch.engine.profile import default_profile
from toolsearch.engine.registration import make_tool
from toolsearch.analysis.sweep import plan_at_budget
from toolsearch.engine.tokens import compact_json, estimate_definitions

P = default_profile()


def text(section: str, key: str, **values) -> str:
    return P.text(section, key, **values)


def digits(n: int) -> int:
    return len(str(n))


# --- Listing pieces -------------------------------------------------------------------------

def test_listing_header_is_81_characters() -> None:
    assert len(text("listing", "header")) == 81
    assert "\n" not in text("listing", "header")


@pytest.mark.parametrize("label,count", [("github", 2), ("a", 7), ("recovery-catalog", 1234)])
def test_group_heading_and_summary_line_patterns(label: str, count: int) -> None:
    assert len(text("listing", "group_heading", label=label, count=count)) == len(label) + digits(count) + 10
    assert len(text("listing", "summary_line", label=label, count=count)) == len(label) + digits(count) + 56


def test_line_patterns() -> None:
    assert text("listing", "full_line", name="n", description="d") == "- n: d"
    assert text("listing", "full_line_bare", name="n") == "- n"
    assert P.sections["listing"]["names_separator"] == ", "


# --- Bridge tool definitions ------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 7, 30, 500, 12345])
def test_tool_search_description_without_listing(n: int) -> None:
    assert len(tool_search_description(n, "none", None, P)) == 704 + digits(n)


@pytest.mark.parametrize("form,between", [("full", 195), ("names", 195), ("mixed", 324), ("groups", 258)])
def test_text_between_description_and_listing(form: str, between: int) -> None:
    listing = "HEADER\nx tools (1):\n- x"
    assert len(tool_search_description(7, form, listing, P)) == 704 + 1 + between + len(listing)


@pytest.mark.parametrize("section,key,length", [
    ("tool_search", "queries", 358), ("tool_search", "limit", 108),
    ("tool_describe", "description", 170), ("tool_describe", "names", 99),
    ("tool_call", "description", 443), ("tool_call", "calls", 50), ("tool_call", "name", 26),
    ("tool_call", "arguments", 35),
])
def test_bridge_parameter_and_description_lengths(section: str, key: str, length: int) -> None:
    assert len(text(section, key)) == length


def test_whole_bridge_definitions_with_seven_deferred_tools() -> None:
    defs = bridge_definitions(tool_search_description(7, "none", None, P), P)
    assert [len(compact_json(d)) for d in defs] == [1424, 476, 893]
    assert [estimate_definitions([d]) for d in defs] == [356, 119, 224]


def test_bare_bridge_is_357_119_224_tokens_with_three_digit_counts() -> None:
    # docs/reference.md §3: "tool_search ~357" for the newest wording; 1,424 + 2 characters with a 3-digit count
    defs = bridge_definitions(tool_search_description(500, "none", None, P), P)
    assert [len(compact_json(d)) for d in defs] == [1426, 476, 893]
    assert [estimate_definitions([d]) for d in defs] == [357, 119, 224]


def test_full_listing_description_formula() -> None:
    tools = [make_tool("github_create_issue", "Open a new issue in a GitHub repository.", server="github"),
             make_tool("github_merge_pr", "", server="github"),
             make_tool("slack_post", "Post a message to a channel.", server="slack")]
    plan = Planner(registration(tools)).plan(parse_config({}), 200_000)
    assert plan.listing_form == "full"
    # header 81 + "github tools (2):" 17 + "- github_create_issue: Open a new issue in a GitHub repository." 63
    # + "- github_merge_pr" 17 + "slack tools (1):" 16 + "- slack_post: Post a message to a channel." 42, 5 newlines
    assert len(plan.listing) == 81 + 17 + 63 + 17 + 16 + 42 + 5 == 241
    assert plan.listing_tokens == 61
    assert len(plan.tool_search_description) == 704 + 1 + 195 + 241


# --- Bridge responses -----------------------------------------------------------------------

def _bridge() -> Bridge:
    terminal = make_tool("terminal", "Run.", kind="core")
    hidden_core = make_tool("read_file", "Read.", kind="core")
    issue = make_tool("mcp__github__create_issue", "Create.", server="github", raw_name="create_issue")
    lone = make_tool("mcp__recovery__op", "Recover.", server="recovery", raw_name="op")
    return Bridge([terminal, issue, lone], registry_tools=[hidden_core])


def test_response_hint_lengths() -> None:
    bridge = _bridge()
    empty = bridge.tool_search({"queries": ["zzzz"]})["results"][0]
    assert "available_sources" in empty and len(empty["hint"]) == 231
    assert len(bridge.tool_describe({"names": ["nope"]})["hint"]) == 78
    assert len(text("hints", "call_validation")) == 70


@pytest.mark.parametrize("key", ["queries", "names"])
def test_list_argument_errors(key: str) -> None:
    call = _bridge().tool_search if key == "queries" else _bridge().tool_describe
    assert len(call({key: 5})["error"]) == len(key) + 44          # not an array
    assert len(call({key: ["  ", ""]})["error"]) == len(key) + 59  # no non-empty string


def test_too_many_items_errors() -> None:
    bridge = _bridge()
    # "too many <key>: <n> > max <max>." is 19 fixed characters; the retry text follows after one space
    queries = bridge.tool_search({"queries": [f"q{i}" for i in range(8)]})["error"]
    assert len(queries) == 19 + len("queries") + digits(8) + digits(7) + 40
    assert queries.startswith("too many queries: 8 > max 7. ")
    names = bridge.tool_describe({"names": [f"n{i}" for i in range(11)]})["error"]
    assert len(names) == 19 + len("names") + digits(11) + digits(10) + 32
    assert names.startswith("too many names: 11 > max 10. ")


def test_name_resolution_errors() -> None:
    bridge = _bridge()

    def call(name: str) -> str:
        return bridge.tool_call({"calls": [{"name": name, "arguments": {}}]})["error"]

    assert len(call("terminal")) == 92 + len("terminal")              # directly listed
    assert len(call("read_file")) == 202 + len("read_file")           # never offered here
    # unknown, no candidates: 145 around the quoted name, then the 40-character hint (with its space)
    assert len(call("nothing_like_it")) == 145 + len("nothing_like_it") + 40
    # unknown with candidates: the hint is 15 characters around the quoted candidate list
    candidates = "'mcp__github__create_issue'"
    assert len(call("create_issue")) == 145 + len("create_issue") + 15 + len(candidates)
    assert call("create_issue").endswith(candidates + "?")


# --- docs/reference.md §13 figures that depend on the wording, as absolute numbers ---------------------------

def _case30():
    big = [make_tool(f"big_{i:03d}", "Synchronize enterprise credentials across regions. " * 3, server="big")
           for i in range(200)]
    small = [make_tool(f"small_{i:03d}", "Ping.", server="small") for i in range(3)]
    return Planner(registration(big + small))


@pytest.mark.parametrize("budget,form", [
    # mixed = header 81 + big summary 62 ("big" + 3 digits + 56) + "small tools (3):" 16
    #         + "small_000, small_001, small_002" 31 + 3 newlines = 193 chars -> 49 tokens;
    # groups = 81 + 62 + small summary 62 + 2 newlines = 207 -> 52 (larger: never chosen);
    # names = 81 + "big tools (200):" 16 + 200*7 + 199*2 = 1798 + 16 + 31 + 4 newlines = 1946 -> 487;
    # full = 81 + 16 + 200 * 61 ("- big_000: " + 50-character sentence) + 16 + 3 * 18 + 205 newlines = 12572 -> 3143
    (48, "none"), (49, "mixed"), (120, "mixed"), (486, "mixed"), (487, "names"), (3142, "names"), (3143, "full"),
])
def test_case30_thresholds_are_absolute(budget: int, form: str) -> None:
    plan = plan_at_budget(_case30(), parse_config({}), budget)
    assert plan.listing_form == form
    assert plan.listing_tokens == {"none": 0, "mixed": 49, "names": 487, "full": 3143}[form]


def test_case30_at_budget_120_text() -> None:
    groups_text = plan_at_budget(_case30(), parse_config({}), 120).listing
    assert len(groups_text) == 193
    assert groups_text.splitlines()[1:] == ["big (200 tools — names not listed; discover via `tool_search`)",
                                            "small tools (3):", "small_000, small_001, small_002"]


def test_500_tools_whole_tool_search_schema_under_4500() -> None:
    # docs/reference.md §3: 500 deferred tools, default config (budget 4,000 at unknown context): the tool_search
    # definition is the 1,426-character bare definition plus the framing and listing text, escaped.
    tools = [make_tool(f"mcp_tool_{i:03d}", f"Do task number {i}.", server=f"s{i % 10}") for i in range(500)]
    plan = Planner(registration(tools)).plan(parse_config({}), None)
    search = next(t for t in plan.tools if t["function"]["name"] == "tool_search")
    listing_json = len(json.dumps(plan.listing, ensure_ascii=False)) - 2
    between = {"full": 195, "names": 195, "mixed": 324, "groups": 258}[plan.listing_form]
    # the four newlines of the two blank lines are escaped as \n in JSON: 4 more characters
    assert len(compact_json(search)) == 1426 + between + 4 + listing_json
    assert estimate_definitions([search]) < 4500

"""Search (docs/reference.md §7) and the bridge tools (docs/reference.md §6, §8, §9, §11): conformance cases 39–48, 51–58,
63–65, 68, 69 and 79 of docs/reference.md §13, plus the admission, cleaning, envelope and validation rules.
"""

from __future__ import annotations

import math

import jsonschema
import pytest

from conftest import fc_tools, mq_tools, obj
from toolsearch.engine import constants as C
from toolsearch.engine.bridge import (
    Bridge,
    clean_string_list,
    clip_description,
    coerce_arguments,
    json_path,
    required_of,
    schema_for_validation,
    to_wire,
)
from toolsearch.engine.config import parse_config
from toolsearch.engine.registration import make_tool
from toolsearch.engine.search import SearchDoc, SearchIndex, SearchOptions, doc_for, required_coverage, stem, tokenize


def index_of(tools) -> SearchIndex:
    """Catalog-level index over ``tools`` in the given order (labels as the bridge builds them)."""
    return SearchIndex([doc_for(t.name, "" if t.toolset is None else t.label, t.description, t.parameters)
                        for t in tools])


def names(index: SearchIndex, query: str, limit: int = 5) -> list[str]:
    return [n for n, _ in index.search(query, limit)]


# --- docs/reference.md §7.1: tokenisation ----------------------------------------------------------------------

@pytest.mark.parametrize("word, expected", [
    ("issues", "issu"), ("issue", "issu"), ("creating", "creat"), ("create", "creat"), ("messages", "messag"),
    ("repositories", "repositori"), ("meetings", "meet"), ("emails", "email"),
])
def test_snowball_stems(word, expected) -> None:
    assert stem(word) == expected


def test_tokenize_rules() -> None:
    assert tokenize("creating messages") == tokenize("create message") == ["creat", "messag"]
    assert tokenize("createIssue") == ["createissu"]                 # no camelCase split
    assert tokenize("a the in") == ["a", "the", "in"]                # no stop words
    assert tokenize("read_file-v2.0:x") == ["read", "file", "v2", "0", "x"]
    assert tokenize("Grüße") == ["gr", "e"]                           # non-ASCII separates
    assert tokenize("東京 ¿?") == []
    assert tokenize("GitHub") == ["github"]


# --- docs/reference.md §7.2: documents -------------------------------------------------------------------------

def test_document_text() -> None:
    doc = doc_for("mcp__mq_linear__create_issue", "mq-linear", "Create it.", {"properties": {"title": {}, "team": {}}})
    assert doc.text() == "mq linear  create issue mq-linear Create it. title team"
    # the label is left out when it already is a whole name word (case-sensitive)
    assert doc_for("mcp__github__search", "github", "D.", {}).text() == "github  search D."
    assert doc_for("mcp__GitHub__search", "github", "D.", {}).text() == "GitHub  search github D."
    assert doc_for("plain.name:x-y", "", "D.", None).text() == "plain name x y D."
    assert doc_for("t", "", "", {"properties": []}).param_names == ()


def test_source_label_makes_a_server_searchable() -> None:
    # PR #95050: "linear" reaches the linear server's tools although no name or description says so.
    tools = [make_tool("save_issue", "Save an issue.", server="linear"), make_tool("post", "Post.", server="slack")]
    assert names(index_of(tools), "linear") == ["save_issue"]


def test_parameter_names_are_indexed_but_not_their_descriptions() -> None:
    tools = [make_tool("t1", "Do.", {"type": "object", "properties": {"zipcode": {"type": "string", "description": "postal"}}},
                       server="s"), make_tool("t2", "Other.", server="s")]
    index = index_of(tools)
    assert names(index, "zipcode") == ["t1"]
    assert names(index, "postal") == []


# --- docs/reference.md §7.3: BM25 ----------------------------------------------------------------------------------

def test_bm25_formula() -> None:
    docs = [SearchDoc("d0", "", "apple apple banana"), SearchDoc("d1", "", "banana cherry"),
            SearchDoc("d2", "", "cherry cherry cherry date")]
    index = SearchIndex(docs)
    corpus = [tokenize(d.text()) for d in docs]
    avgdl = sum(map(len, corpus)) / len(corpus)

    def bm25(query: list[str], doc: list[str]) -> float:
        score = 0.0
        for term in query:
            df = sum(term in d for d in corpus)
            tf = doc.count(term)
            if not df or not tf:
                continue
            idf = math.log(1 + (len(corpus) - df + 0.5) / (df + 0.5))
            score += idf * tf * (1.5 + 1) / (tf + 1.5 * (1 - 0.75 + 0.75 * len(doc) / avgdl))
        return score

    for query in ("cherry", "banana", "apple banana", "banana banana"):
        for name, score in index.search(query, 5):
            doc = corpus[int(name[1])]
            assert score == pytest.approx(bm25(tokenize(query), doc), rel=1e-12)
    assert index.idf("zzz") == pytest.approx(math.log(1 + 3.5 / 0.5))
    assert index.df("cherri") == 2


def test_repeated_query_words_count_twice() -> None:
    index = index_of(fc_tools())
    once = dict(index.search("github", 5))
    twice = dict(index.search("github github", 5))
    assert set(once) == set(twice) == {"github_create_issue", "github_search_repos"}
    for name in once:
        assert twice[name] == pytest.approx(2 * once[name], rel=1e-12)


def test_equal_scores_keep_catalog_order() -> None:
    tools = [make_tool(f"tool_{c}", "Send email.", kind="unregistered") for c in "abc"]
    assert names(index_of(tools), "email") == ["tool_a", "tool_b", "tool_c"]
    assert names(index_of(list(reversed(tools))), "email") == ["tool_c", "tool_b", "tool_a"]


# --- docs/reference.md §7.4: admission -------------------------------------------------------------------------

@pytest.mark.parametrize("answerable, required", [(0, 1), (1, 1), (3, 1), (4, 2), (5, 3), (6, 3), (7, 4), (8, 4), (9, 5)])
def test_coverage_numbers(answerable, required) -> None:
    assert required_coverage(answerable) == required


def test_case39_fc_create_a_github_issue() -> None:
    index = index_of(fc_tools())
    assert names(index, "create a github issue") == ["github_create_issue"]
    ex = index.explain("create a github issue", 5)
    assert ex.gate == "issu"
    assert ex.answerable == ("creat", "a", "github", "issu")
    assert ex.required == 2
    reasons = {c.name: (c.admitted, c.reason) for c in ex.candidates}
    assert reasons["calendar_create_event"] == (False, "lacks the gate term 'issue → issu'")
    assert reasons["github_create_issue"][0] is True


def test_case41_fc_calendar() -> None:
    assert names(index_of(fc_tools()), "calendar") == ["calendar_create_event"]


def _coverage_catalog():
    tools = [make_tool("zeta_tool", "Zeta.", kind="unregistered"),
             make_tool("zeta_beta_tool", "Beta.", kind="unregistered")]
    tools += [make_tool(f"filler_{i}", "beta gamma delta.", kind="unregistered") for i in range(4)]
    return tools


def test_coverage_floor_rejects_a_document_with_only_the_gate() -> None:
    index = index_of(_coverage_catalog())
    assert names(index, "zeta beta gamma delta") == ["zeta_beta_tool"]
    ex = index.explain("zeta beta gamma delta", 5)
    assert (ex.gate, ex.required) == ("zeta", 2)
    reasons = {c.name: c.reason for c in ex.candidates}
    assert reasons["zeta_tool"] == "covers 1 of 4 answerable terms; needs 2"
    assert reasons["filler_0"] == "lacks the gate term 'zeta'"
    # fewer than 4 answerable terms: a single term (the gate) is enough
    assert set(names(index, "zeta gamma delta")) == {"zeta_beta_tool", "zeta_tool"}


def test_options_switch_gate_and_coverage_off() -> None:
    tools = _coverage_catalog()
    docs = [doc_for(t.name, "", t.description, t.parameters) for t in tools]
    no_cov = SearchIndex(docs, SearchOptions(coverage=False))
    assert set(n for n, _ in no_cov.search("zeta beta gamma delta", 10)) == {"zeta_tool", "zeta_beta_tool"}
    no_gate = SearchIndex(docs, SearchOptions(gate=False))
    assert len(no_gate.search("zeta beta gamma delta", 10)) == 5   # every doc covering 2 of 4 terms


def test_gate_ties_go_to_the_first_token_in_query_order() -> None:
    index = index_of(_coverage_catalog())
    assert index.df("gamma") == index.df("delta") == 4
    assert index.explain("gamma delta", 5).gate == "gamma"
    assert index.explain("delta gamma", 5).gate == "delta"


def test_an_unknown_word_empties_the_query_except_exact_names() -> None:
    index = index_of(fc_tools())
    assert names(index, "github nonexistentword") == []
    assert index.explain("github nonexistentword", 5).gate == "nonexistentword"
    assert names(index, "calendar_create_event") == ["calendar_create_event"]


@pytest.mark.parametrize("query", ["", "   ", "?!", "東京", "___"])
def test_queries_without_ascii_tokens_give_nothing(query) -> None:
    assert index_of(fc_tools()).search(query, 5) == []


def test_empty_catalog_and_non_positive_limit() -> None:
    assert SearchIndex([]).search("anything", 5) == []
    assert index_of(fc_tools()).search("github", 0) == []
    assert index_of(fc_tools()).search("github", -3) == []


# --- case 45: exact names ---------------------------------------------------------------------

def test_case45_exact_name_first_even_past_the_gate() -> None:
    index = index_of(fc_tools())
    assert names(index, "github_create_issue")[0] == "github_create_issue"
    assert index.search("github_create_issue", 5)[0][1] == math.inf
    assert names(index, "GITHUB_CREATE_ISSUE")[0] == "github_create_issue"
    assert names(index, "  github_create_issue  ")[0] == "github_create_issue"


def test_case45_exact_name_beats_longer_relatives_at_limit_1() -> None:
    tools = [make_tool("github_create_issue", "Create an issue. " * 30, kind="unregistered"),
             make_tool("github_create_issue_comment", "Comment on an issue.", kind="unregistered"),
             make_tool("github_create_issue_label", "Label an issue.", kind="unregistered")]
    assert names(index_of(tools), "github_create_issue", 1) == ["github_create_issue"]
    tools = [make_tool(n, "Items.", kind="unregistered") for n in ("list", "list_x", "list_all_the_open_items")]
    assert names(index_of(tools), "list", 1) == ["list"]


def test_case48_stemming_over_mq() -> None:
    assert names(index_of(mq_tools()), "issues") == ["mq_linear_list_issues", "mq_linear_create_issue"]


# --- tool_search ---------------------------------------------------------------------------------

def test_case51_grouped_results() -> None:
    response = Bridge(mq_tools()).tool_search({"queries": ["create linear issue", "post slack message"]})
    assert list(response) == ["queries", "total_available", "results", "tools"]
    assert response["queries"] == ["create linear issue", "post slack message"]
    assert response["total_available"] == 3
    assert "mq_linear_create_issue" in response["results"][0]["matches"]
    assert "mq_slack_post_message" in response["results"][1]["matches"]
    union = {n for group in response["results"] for n in group["matches"]}
    assert set(response["tools"]) == union
    record = response["tools"]["mq_linear_create_issue"]
    assert list(record) == ["source", "source_name", "description", "required"]
    assert record["source"] == "mcp" and record["source_name"] == "mcp-mq-linear"
    assert record["description"].startswith("Create a new issue")
    assert record["required"] == ["title", "team"]
    wire = to_wire(response)
    assert "available_sources" not in wire and '"hint"' not in wire
    assert all(list(group) == ["query", "matches"] for group in response["results"])


def test_case54_zero_hits_with_one_source(profile) -> None:
    tool = make_tool("recovery_catalog_create_record", "Create a record.", server="recovery-catalog")
    response = Bridge([tool]).tool_search({"queries": ["unrelated vocabulary"]})
    (group,) = response["results"]
    assert group["matches"] == []
    assert response["tools"] == {}
    assert response["total_available"] == 1
    assert group["available_sources"] == [{"name": "recovery-catalog", "tool_count": 1}]
    assert group["hint"] == profile.text("hints", "search_empty")
    assert list(group) == ["query", "matches", "available_sources", "hint"]
    assert list(response) == ["queries", "total_available", "results", "tools"]


def test_available_sources_cover_every_source_sorted_with_other() -> None:
    tools = [make_tool("b1", "d", server="zeta"), make_tool("u1", "d", kind="plugin", server="kanban"),
             make_tool("a1", "d", server="alpha"), make_tool("a2", "d", server="alpha"),
             make_tool("x", "d", kind="unregistered")]
    bridge = Bridge(tools, parse_config({"defer": ["x"]}))
    (group,) = bridge.tool_search({"queries": "qqq"})["results"]
    assert group["available_sources"] == [{"name": "alpha", "tool_count": 2}, {"name": "kanban", "tool_count": 1},
                                          {"name": "other", "tool_count": 1}, {"name": "zeta", "tool_count": 1}]


def test_no_available_sources_when_the_catalog_is_empty() -> None:
    response = Bridge([make_tool("terminal", kind="core")]).tool_search({"queries": ["x"]})
    assert response == {"queries": ["x"], "total_available": 0, "results": [{"query": "x", "matches": []}], "tools": {}}


def test_a_tool_in_several_groups_has_one_record() -> None:
    response = Bridge(mq_tools()).tool_search({"queries": ["issues", "linear issue", "issues"]})
    assert [g["query"] for g in response["results"]] == ["issues", "linear issue", "issues"]  # duplicates kept
    assert response["results"][0] == response["results"][2]
    assert list(response["tools"]) == ["mq_linear_list_issues", "mq_linear_create_issue"]


@pytest.mark.parametrize("arguments, key", [
    ({}, "queries_required"), ({"queries": None}, "queries_required"), ({"queries": 5}, "queries_required"),
    ({"queries": {"a": 1}}, "queries_required"), ({"queries": []}, "queries_empty"),
    ({"queries": ["  ", ""]}, "queries_empty"), ({"queries": [0, False, None]}, "queries_empty"),
    ({"queries": "   "}, "queries_empty"),
])
def test_case56_argument_errors(profile, arguments, key) -> None:
    assert Bridge(mq_tools()).tool_search(arguments) == {"error": profile.text("errors", key)}


def test_case56_too_many_queries(profile) -> None:
    response = Bridge(mq_tools()).tool_search({"queries": [f"q{i}" for i in range(8)]})
    assert set(response) == {"error"}
    assert "too many queries" in response["error"]
    assert response["error"] == "too many queries: 8 > max 7. " + profile.text("hints", "too_many_queries")
    ok = Bridge(mq_tools()).tool_search({"queries": [f"q{i}" for i in range(7)]})
    assert len(ok["results"]) == 7


def test_case56_bare_string_and_item_cleaning() -> None:
    bridge = Bridge(mq_tools())
    assert bridge.tool_search({"queries": "post slack message"})["queries"] == ["post slack message"]
    cleaned = bridge.tool_search({"queries": [0, False, None, 42, ["a"], "  issues  ", ""]})
    assert cleaned["queries"] == ["42", "['a']", "issues"]
    literal = bridge.tool_search({"queries": '["issues", "post"]'})
    assert literal["queries"] == ['["issues", "post"]']       # a JSON-encoded array is not parsed
    assert bridge.tool_search("not a mapping") == {"error": bridge.profile.text("errors", "queries_required")}


def test_clean_string_list() -> None:
    assert clean_string_list("x", dedupe=False) == ["x"]
    assert clean_string_list(["a", "a", " b", "a "], dedupe=True) == ["a", "b"]
    assert clean_string_list(["a", "a"], dedupe=False) == ["a", "a"]
    assert clean_string_list(("t",), dedupe=True) == ["t"]
    assert clean_string_list(3, dedupe=True) is None
    assert clean_string_list(None, dedupe=True) is None


@pytest.mark.parametrize("limit, expected", [
    (0, 1), (-5, 1), (100, 25), ("abc", 5), (None, 5), ("10", 10), (3.7, 3), (True, 1), (25, 25), (26, 25),
])
def test_case58_limit_clamping(limit, expected) -> None:
    assert Bridge([]).resolve_limit(limit) == expected


def test_case58_limit_applies_per_query_and_follows_config() -> None:
    tools = [make_tool(f"send_email_{i:02d}", "Send email.", server="mail") for i in range(30)]
    bridge = Bridge(tools)
    response = bridge.tool_search({"queries": ["email", "send"], "limit": 100})
    assert [len(g["matches"]) for g in response["results"]] == [25, 25]
    assert len(bridge.tool_search({"queries": ["email"]})["results"][0]["matches"]) == 5
    assert len(bridge.tool_search({"queries": ["email"], "limit": 0})["results"][0]["matches"]) == 1
    small = Bridge(tools, parse_config({"max_search_limit": 3, "search_default_limit": 2}))
    assert small.resolve_limit(None) == 2 and small.resolve_limit(99) == 3


def test_description_clip_and_required_rules() -> None:
    assert clip_description("x" * 500) == "x" * 500
    assert clip_description("x" * 501) == "x" * 500 + "…"
    assert required_of({"required": ["a", 7, None, "b" * 70]}) == ["a", "b" * 64]
    assert required_of({"required": [f"r{i}" for i in range(40)]}) == [f"r{i}" for i in range(32)]
    assert required_of({"required": "a"}) == []
    assert required_of(None) == []
    long_tool = make_tool("long_tool", "word " * 200, server="s")
    record = Bridge([long_tool]).tool_search({"queries": ["long_tool"]})["tools"]["long_tool"]
    assert record["description"] == ("word " * 200)[:500] + "…"


def test_sources_of_records(profile) -> None:
    tools = [make_tool("todo_list", "Manage todo items.", kind="core", server="todo"),
             make_tool("kanban_move", "Move todo card.", kind="plugin", server="kanban"),
             make_tool("odd_todo", "Todo things.", kind="unregistered")]
    bridge = Bridge(tools, parse_config({"defer": ["todo_list", "odd_todo"]}))
    records = bridge.tool_search({"queries": ["todo"]})["tools"]
    assert {n: (r["source"], r["source_name"]) for n, r in records.items()} == {
        "todo_list": ("plugin", "todo"), "kanban_move": ("plugin", "kanban"), "odd_todo": ("other", "")}


def test_to_wire_keeps_non_ascii_and_default_separators() -> None:
    assert to_wire({"q": ["é", 1]}) == '{"q": ["é", 1]}'


# --- tool_describe ---------------------------------------------------------------------------------

def test_case63_mixed_batch(profile) -> None:
    elsewhere = make_tool("mq_out_of_scope_op", "Elsewhere.", server="mq-elsewhere")
    bridge = Bridge(mq_tools(), registry_tools=[elsewhere])
    response = bridge.tool_describe({"names": ["mq_linear_create_issue", "mq_slack_post_message",
                                               "mq_out_of_scope_op", "mcp__bogus__missing"]})
    assert list(response) == ["tools", "not_found", "hint"]
    assert list(response["tools"]) == ["mq_linear_create_issue", "mq_slack_post_message"]
    create = response["tools"]["mq_linear_create_issue"]
    assert create == {"description": "Create a new issue in a team.",
                      "parameters": {"type": "object", "properties": {"title": {"type": "string"}, "team": {"type": "string"}},
                                     "required": ["title", "team"]}}
    assert response["not_found"] == ["mq_out_of_scope_op", "mcp__bogus__missing"]
    assert response["hint"] == profile.text("hints", "describe_not_found")


def test_describe_returns_the_full_description() -> None:
    long_description = "Sentence one. " * 100
    bridge = Bridge([make_tool("long", long_description, server="s")])
    assert bridge.tool_describe({"names": "long"})["tools"]["long"]["description"] == long_description


def test_case65_duplicates_collapse() -> None:
    response = Bridge(mq_tools()).tool_describe({"names": ["mq_linear_list_issues", "mq_linear_list_issues"]})
    assert list(response) == ["tools"]
    assert list(response["tools"]) == ["mq_linear_list_issues"]


def test_describe_direct_tools_bridge_names_and_case(profile) -> None:
    terminal = make_tool("terminal", "Run.", kind="core")
    hidden_core = make_tool("read_file", "Read.", kind="core")
    bridge = Bridge([terminal, *mq_tools()], registry_tools=[hidden_core])
    response = bridge.tool_describe({"names": ["terminal", "read_file", "tool_search", "TERMINAL", "mq_linear_list_issues"]})
    assert list(response) == ["tools", "not_found", "hint", "errors"]
    assert list(response["tools"]) == ["mq_linear_list_issues"]
    assert response["not_found"] == ["tool_search", "TERMINAL"]
    assert response["errors"] == {
        "terminal": profile.text("errors", "not_deferrable", name="terminal"),
        "read_file": profile.text("errors", "not_in_session", name="read_file"),
    }
    assert "directly-listed" in response["errors"]["terminal"]
    assert "Do not retry" in response["errors"]["read_file"]


@pytest.mark.parametrize("arguments, key", [
    ({}, "names_required"), ({"names": 3}, "names_required"), ({"names": []}, "names_empty"), ({"names": [" "]}, "names_empty"),
])
def test_describe_argument_errors(profile, arguments, key) -> None:
    assert Bridge(mq_tools()).tool_describe(arguments) == {"error": profile.text("errors", key)}


def test_describe_cap_counts_after_dedupe(profile) -> None:
    bridge = Bridge(mq_tools())
    eleven = [f"n{i}" for i in range(11)]
    response = bridge.tool_describe({"names": eleven})
    assert response == {"error": "too many names: 11 > max 10. " + profile.text("hints", "too_many_names")}
    ten_with_repeats = [f"n{i}" for i in range(10)] + ["n0", "n1"]
    assert bridge.tool_describe({"names": ten_with_repeats})["not_found"] == [f"n{i}" for i in range(10)]


def test_describe_no_hits(profile) -> None:
    assert Bridge(mq_tools()).tool_describe({"names": "nothing"}) == {
        "tools": {}, "not_found": ["nothing"], "hint": profile.text("hints", "describe_not_found")}


# --- tool_call ---------------------------------------------------------------------------------------

def _doc_tool():
    return make_tool("mcp__docs__get_document", "Get a document.",
                     {"type": "object", "properties": {"document_id": {"type": "string"}}, "required": ["document_id"]},
                     server="docs", raw_name="get_document")


def test_case68_valid_call_runs_the_handler_and_returns_its_result() -> None:
    bridge = Bridge([_doc_tool()])
    seen = []
    result = {"content": [{"type": "text", "text": "hello é"}], "isError": False}
    bridge.dispatcher = lambda tool, args: seen.append((tool.name, tool.raw_name, args)) or result
    out = bridge.tool_call({"calls": [{"name": "mcp__docs__get_document", "arguments": {"document_id": "abc"}}]})
    assert out is result
    assert seen == [("mcp__docs__get_document", "get_document", {"document_id": "abc"})]


def test_valid_call_without_a_dispatcher_shows_what_would_be_sent() -> None:
    out = Bridge([_doc_tool()]).tool_call({"calls": [{"name": "mcp__docs__get_document", "arguments": {"document_id": "abc"}}]})
    assert out == {"dispatch": {"name": "mcp__docs__get_document", "server": "docs", "tool": "get_document",
                                "arguments": {"document_id": "abc"}}}


def test_case69_missing_required_is_not_invoked(profile) -> None:
    bridge = Bridge([_doc_tool()])
    calls = []
    bridge.dispatcher = lambda tool, args: calls.append(1)
    out = bridge.tool_call({"calls": [{"name": "mcp__docs__get_document", "arguments": {}}]})
    assert calls == []
    assert list(out) == ["error", "path", "constraint", "parameters", "hint"]
    assert "document_id" in out["error"] and "NOT invoked" in out["error"]
    assert out["parameters"]["required"] == ["document_id"]
    assert (out["path"], out["constraint"]) == ("arguments", "required")
    assert out["hint"] == profile.text("hints", "call_validation")


def test_missing_required_lists_every_missing_name() -> None:
    tool = make_tool("m", "d", obj("a", "b", "c", required=["a", "b", "c"]), server="s")
    out = Bridge([tool]).tool_call({"calls": [{"name": "m", "arguments": {"b": "x"}}]})
    assert out["error"] == "Tool 'm' is missing required argument(s): a, c. The tool was NOT invoked."


def _typed_tool():
    return make_tool("m1", "d", {"type": "object", "properties": {
        "priority": {"type": "string", "enum": ["low", "high"]},
        "options": {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"],
                    "additionalProperties": False},
        "items": {"type": "array", "items": {"type": "integer"}},
        "x-y": {"type": "integer"},
        "flag": {"type": "boolean"},
        "note": {"type": "string", "nullable": True},
    }, "additionalProperties": False}, server="s")


@pytest.mark.parametrize("arguments, path, constraint", [
    ({"priority": "urgent"}, "arguments.priority", "enum"),
    ({"options": {}}, "arguments.options", "required"),
    ({"options": {"count": "x"}}, "arguments.options.count", "type"),
    ({"options": {"count": 1, "extra": 2}}, "arguments.options", "additionalProperties"),
    ({"items": [1, "a"]}, "arguments.items[1]", "type"),
    ({"x-y": "z"}, 'arguments["x-y"]', "type"),
    ({"bogus": 1}, "arguments", "additionalProperties"),
    ({"flag": "maybe"}, "arguments.flag", "type"),
])
def test_validation_path_and_constraint(arguments, path, constraint) -> None:
    out = Bridge([_typed_tool()]).tool_call({"calls": [{"name": "m1", "arguments": arguments}]})
    assert (out["path"], out["constraint"]) == (path, constraint)
    assert out["error"].startswith(f"Tool 'm1': {path} failed '{constraint}': ")
    assert out["error"].endswith(". The tool was NOT invoked.")
    assert out["parameters"] == _typed_tool().parameters


@pytest.mark.parametrize("arguments, sent", [
    ({"x-y": "5"}, {"x-y": 5}),
    ({"flag": "TRUE"}, {"flag": True}),
    ({"note": None, "priority": "low"}, {"note": None, "priority": "low"}),
    ({"note": "null"}, {"note": None}),
    ({"items": "[1, 2]"}, {"items": [1, 2]}),
    ({"options": '{"count": 3}'}, {"options": {"count": 3}}),
])
def test_coercion_before_validation(arguments, sent) -> None:
    out = Bridge([_typed_tool()]).tool_call({"calls": [{"name": "m1", "arguments": arguments}]})
    assert out == {"dispatch": {"name": "m1", "server": "s", "tool": "m1", "arguments": sent}}


def test_coerce_arguments_rules() -> None:
    params = {"type": "object", "properties": {"n": {"type": "number"}, "o": {"type": "object"},
                                               "r": {"type": "object", "required": ["k"]}, "i": {"type": "integer"}}}
    assert coerce_arguments({"n": "2.5", "o": "", "r": "", "i": "4x"}, params) == {"n": 2.5, "o": {}, "r": "", "i": "4x"}
    assert coerce_arguments({"n": "3"}, params) == {"n": 3}
    original = {"o": "{}"}
    assert coerce_arguments(original, params) == {"o": {}} and original == {"o": "{}"}


def test_validation_message_is_cut_to_600_characters() -> None:
    choices = [f"choice-{i:03d}-" + "x" * 20 for i in range(60)]
    tool = make_tool("m", "d", {"type": "object", "properties": {"p": {"type": "string", "enum": choices}}}, server="s")
    out = Bridge([tool]).tool_call({"calls": [{"name": "m", "arguments": {"p": "nope"}}]})
    full = " ".join(jsonschema.Draft202012Validator({"enum": choices}).iter_errors("nope").__next__().message.split())
    assert len(full) > 600
    detail = full[:597] + "..."
    assert out["error"] == f"Tool 'm': arguments.p failed 'enum': {detail}. The tool was NOT invoked."
    assert len(detail) == 600


def test_validation_is_skipped_for_remote_refs_and_non_object_schemas() -> None:
    remote = make_tool("r", "d", {"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}, server="s")
    check = Bridge([remote]).check_call({"calls": [{"name": "r", "arguments": {"a": 1}}]})
    assert (check.error, check.validated, check.skipped) == (None, False, "the schema has a non-local $ref")
    local = make_tool("l", "d", {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                                 "$defs": {"A": {"type": "integer"}}}, server="s")
    out = Bridge([local]).tool_call({"calls": [{"name": "l", "arguments": {"a": "x"}}]})
    assert (out["path"], out["constraint"]) == ("arguments.a", "type")


def test_schema_for_validation_nullable() -> None:
    assert schema_for_validation({"type": "string", "nullable": True}) == {"type": ["string", "null"], "nullable": True}
    assert schema_for_validation({"nullable": True, "enum": ["a"]}) == {
        "anyOf": [{"nullable": True, "enum": ["a"]}, {"type": "null"}]}
    literal = {"const": {"nullable": True}, "default": {"nullable": True}}
    assert schema_for_validation(literal) == literal


def test_json_path_format() -> None:
    assert json_path([]) == "arguments"
    assert json_path(["options", "count"]) == "arguments.options.count"
    assert json_path(["list", 0, "first name", "_ok1"]) == 'arguments.list[0]["first name"]._ok1'
    assert json_path(["é"]) == 'arguments["é"]'


# --- §9.1 envelopes, case 79 ------------------------------------------------------------------------

def _m1():
    return make_tool("m1", "d", {"type": "object", "properties": {"a": {"type": "integer"}}}, server="s")


@pytest.mark.parametrize("arguments, args_sent", [
    ({"name": "m1", "arguments": {"a": 1}}, {"a": 1}),                          # legacy shape
    ({"name": " m1 "}, {}),
    ({"calls": '[{"name":"m1","arguments":{}}]'}, {}),                         # JSON string
    ({"calls": {"name": "m1", "arguments": {"a": 2}}}, {"a": 2}),                # object → batch of one
    ({"calls": [{"name": "m1", "arguments": None}]}, {}),
    ({"calls": [{"name": "m1", "arguments": ""}]}, {}),
    ({"calls": [{"name": "m1", "arguments": "  "}]}, {}),
    ({"calls": [{"name": "m1"}]}, {}),
    ({"calls": [{"name": "m1", "arguments": '{"a": 3}'}]}, {"a": 3}),
    ({"calls": [{"name": "  m1\t", "arguments": {}}]}, {}),
])
def test_case79_envelope_tolerance(arguments, args_sent) -> None:
    out = Bridge([_m1()]).tool_call(arguments)
    assert out == {"dispatch": {"name": "m1", "server": "s", "tool": "m1", "arguments": args_sent}}


@pytest.mark.parametrize("arguments, expected", [
    ({}, "tool_call requires 'calls' (an array of {name, arguments})."),
    ({"name": "  "}, "tool_call requires 'calls' (an array of {name, arguments})."),
    ({"calls": []}, "'calls' must be a non-empty array of {name, arguments}."),
    ({"calls": 5}, "'calls' must be a non-empty array of {name, arguments}."),
    ({"calls": "[]"}, "'calls' must be a non-empty array of {name, arguments}."),
    ({"calls": [5]}, "calls[0] must be an object with name and arguments."),
    ({"calls": [{"arguments": {}}]}, "calls[0] requires a 'name'."),
    ({"calls": [{"name": "m1", "arguments": {}}, {"name": " "}]}, "calls[1] requires a 'name'."),
    ({"calls": [{"name": "tool_search", "arguments": {}}]}, "tool_call cannot invoke 'tool_search' (it is itself a bridge tool)."),
    ({"calls": [{"name": "m1", "arguments": "[1]"}]}, "calls[0].arguments must be an object."),
    ({"calls": [{"name": "m1", "arguments": 7}]}, "calls[0].arguments must be an object."),
])
def test_case79_envelope_errors(arguments, expected) -> None:
    assert Bridge([_m1()]).tool_call(arguments) == {"error": expected}


def test_invalid_json_errors_carry_the_parser_message() -> None:
    bridge = Bridge([_m1()])
    out = bridge.tool_call({"calls": "[{bad"})
    assert out["error"].startswith("'calls' is not valid JSON: Expecting property name enclosed in double quotes")
    out = bridge.tool_call({"calls": [{"name": "m1", "arguments": "{bad"}]})
    assert out["error"].startswith("calls[0].arguments is not valid JSON: Expecting property name")


def test_multi_local_batch_is_rejected_with_a_retry_payload() -> None:
    bridge = Bridge([_m1()])
    out = bridge.tool_call({"calls": [{"name": "m1", "arguments": {"a": 1}}, {"name": "m1"}, {"name": "x"}]})
    message = out["error"]
    assert message.startswith("tool_call takes exactly one entry for local tools; you sent 3.")
    assert '{"calls":[{"name":"m1","arguments":{"a":1}}]}' in message
    assert "remaining 2" in message
    assert "Only connectors__ names may be batched together." in message
    big = bridge.tool_call({"calls": [{"name": "m1", "arguments": {"a": "x" * 1600}}, {"name": "m1"}]})
    assert '{"calls":[{"name":"m1","arguments":{...}}]}' in big["error"]


def test_connectors_are_not_available(profile) -> None:
    expected = {"error": profile.text("errors", "connectors_unavailable")}
    bridge = Bridge([_m1()])
    assert bridge.tool_call({"calls": [{"name": "connectors__gmail__send", "arguments": {}}]}) == expected
    assert bridge.tool_call({"calls": [{"name": "connectors__a__b"}, {"name": "connectors__c__d"}]}) == expected


def test_call_resolution_errors(profile) -> None:
    terminal = make_tool("terminal", "Run.", kind="core")
    hidden_core = make_tool("read_file", "Read.", kind="core")
    elsewhere = make_tool("mcp__other__op", "Elsewhere.", server="other", raw_name="op")
    issue = make_tool("mcp__github__create_issue", "Create.", server="github", raw_name="create_issue")
    bridge = Bridge([terminal, issue], registry_tools=[hidden_core, elsewhere])

    def call(name):
        return bridge.tool_call({"calls": [{"name": name, "arguments": {}}]})["error"]

    assert call("terminal") == profile.text("errors", "not_deferrable", name="terminal")
    assert call("read_file") == profile.text("errors", "not_in_session", name="read_file")
    assert call("mcp__other__op") == profile.text("errors", "out_of_scope", name="mcp__other__op")
    assert call("create_issue") == (profile.text("errors", "unknown_tool", name="create_issue") + " "
                                    + profile.text("errors", "did_you_mean", candidates="'mcp__github__create_issue'"))
    assert "Did you mean 'mcp__github__create_issue'?" in call("create_issue")
    assert call("nothing_like_it") == (profile.text("errors", "unknown_tool", name="nothing_like_it") + " "
                                       + profile.text("errors", "use_search"))


def test_call_respects_the_defer_set() -> None:
    todo = make_tool("todo_list", "Todo.", {"type": "object", "properties": {}}, kind="core", server="todo")
    assert "dispatch" in Bridge([todo]).tool_call({"name": "todo_list"})
    out = Bridge([todo], parse_config({"defer": []})).tool_call({"name": "todo_list"})
    assert "directly-listed" in out["error"]


def test_stage_b_renames_are_mapped_back_for_dispatch() -> None:
    from toolsearch.engine.catalog import Catalog, Server, Tool
    from toolsearch.engine.registration import register_catalog

    schema = {"type": "object", "properties": {"first name": {"type": "string"}}, "required": ["first name"]}
    reg = register_catalog(Catalog("t", (Server("crm", "mcp", (Tool("add", "Add.", schema),)),)))
    bridge = Bridge(reg.tools)
    out = bridge.tool_call({"calls": [{"name": "mcp__crm__add", "arguments": {"first_name": "Ada"}}]})
    assert out == {"dispatch": {"name": "mcp__crm__add", "server": "crm", "tool": "add",
                                "arguments": {"first name": "Ada"}}}


def test_stem_memo_size_and_thread_safety() -> None:
    # docs/reference.md §7.1: stems memoised process-wide (16,384 entries); one stemmer per thread.
    from concurrent.futures import ThreadPoolExecutor

    assert stem.cache_info().maxsize == C.STEM_CACHE_SIZE == 16_384
    bridge = Bridge(mq_tools())
    query = {"queries": ["creating linear issues", "posting slack messages", "listing workspaces"]}
    expected = bridge.tool_search(query)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: Bridge(mq_tools()).tool_search(query), range(32)))
    assert all(r == expected for r in results)


def test_a_schema_pattern_that_backtracks_for_ever_does_not_hang_tool_call(tmp_path) -> None:
    """The catalog's ``pattern`` is untrusted: ``^(a|aa)+$`` against 60 ``a`` and a ``!`` takes
    Python's ``re`` longer than anyone waits. Local validation gives up after
    SCHEMA_PATTERN_TIMEOUT and fails open (the call is dispatched unvalidated, as for any schema
    the validator cannot use); a pattern that decides quickly still validates."""
    import json
    import subprocess

    from conftest import toolsearch_command, write_json

    catalog = write_json(tmp_path / "p.json", {"name": "p", "servers": [{"name": "s", "tools": [
        {"name": "evil", "description": "Evil pattern.", "inputSchema": {
            "type": "object", "properties": {"q": {"type": "string", "pattern": "^(a|aa)+$"}}}},
        {"name": "nested", "description": "Nested.", "inputSchema": {
            "type": "object", "patternProperties": {"^(a|aa)+$": {"type": "integer"}}}},
        {"name": "closed", "description": "Closed.", "inputSchema": {
            "type": "object", "patternProperties": {"^(a|aa)+$": {"type": "integer"}},
            "additionalProperties": False}},
        {"name": "unevaluated", "description": "Unevaluated.", "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object", "patternProperties": {"^(a|aa)+$": {"type": "integer"}},
            "unevaluatedProperties": False}}]}]})
    key = "a" * 60 + "!"
    for tool, args in (("mcp__s__evil", {"q": key}), ("mcp__s__nested", {key: "x"}),
                       ("mcp__s__closed", {key: "x"}), ("mcp__s__unevaluated", {key: "x"})):
        done = subprocess.run([*toolsearch_command(), "call", str(catalog), tool, "-a", json.dumps(args)],
                              capture_output=True, text=True, timeout=40)
        assert done.returncode == 0, done.stdout + done.stderr
        assert json.loads(done.stdout)["dispatch"]["tool"] == tool.rsplit("__", 1)[1]
    from toolsearch.engine.bridge import _schema_search
    assert _schema_search("^(a+)+$", "aaa") and not _schema_search("^(a+)+$", "a" * 40 + "!")

"""A text naming a tool that many other servers have: the first ``SHADOWED_NAMED`` servers are named,
one ``shadowing`` finding each, and one more finding counts the rest (a tool name on thousands of
servers, named in the text of thousands of others, made a finding per pair: 20,000 servers gave
100 million). The indexed reading (:class:`toolsearch.analysis.lint._NamedTools`) gives the
findings of the straightforward one on random small catalogs.

Timings are not tested here (benchmarks/scale.py prints them).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolsearch.analysis import lint as L
from toolsearch.engine.catalog import Catalog, Server, Tool

TOOLS = ("create_issue", "list_issues", "post_message", "read_file", "search")
WORDS = TOOLS + ("mcp__gh-1__create_issue", "mcp__sl-2__post_message", "mcp__gh-3__list_issues", "then", "first", "a")


def _catalog(servers: list[tuple[str, list[tuple[str, list[str]]]]]) -> Catalog:
    return Catalog(name="shadows", servers=tuple(
        Server(name=name, tools=tuple(Tool(name=t, description=" ".join(words) + ".", input_schema={"type": "object"})
                                      for t, words in tools))
        for name, tools in servers))


def _shadowing(findings: list[L.Finding]) -> list[L.Finding]:
    return [f for f in findings if f.rule == "shadowing"]


_SERVERS = st.lists(st.tuples(st.sampled_from(("gh-1", "sl-2", "gh-3", "fs-4", "gh-5", "x")),
                              st.lists(st.tuples(st.sampled_from(TOOLS), st.lists(st.sampled_from(WORDS), max_size=6)),
                                       max_size=3)),
                    min_size=1, max_size=30)


@settings(max_examples=150, deadline=None)
@given(_SERVERS, st.integers(1, 3))
def test_indexed_words_give_the_straightforward_findings(servers, cap) -> None:
    """With the cap lowered, so that small catalogs pass it (1 to 3 servers named per word)."""
    original = L.SHADOWED_NAMED
    L.SHADOWED_NAMED = cap
    try:
        catalog = _catalog(servers)
        assert L.poisoning(catalog, "prefixed") == L.poisoning(catalog, "prefixed", _straightforward=True)
    finally:
        L.SHADOWED_NAMED = original


def test_a_tool_on_many_servers_is_named_ten_times_then_counted() -> None:
    servers = [(f"gh-{k}", [("create_issue", ["Open", "an", "issue"])]) for k in range(25)]
    servers.append(("chat", [("post_message", ["Post", "it;", "call", "create_issue", "or", "create_issue", "first"])]))
    found = _shadowing(L.poisoning(_catalog(servers), "prefixed"))
    assert [f.server for f in found] == ["chat"] * 11
    counted = ("names 'create_issue', a tool on 15 more other servers too (only the first 10 are named, one finding "
               "each; these are not listed)")
    assert [f.message for f in found] == [f"names gh-{k}'s tool 'create_issue' (another server)" for k in range(10)] + [
        counted]
    assert {f.offset for f in found} == {len("Post it; call ")}


def test_a_tool_on_the_server_itself_and_many_others() -> None:
    """A server's text naming its own tool refers to its own: nothing is said, however many other
    servers have one; a tool on eleven other servers is named ten times and the eleventh counted."""
    servers = [(f"gh-{k}", [("create_issue", ["Use", "create_issue", "again"])]) for k in range(12)]
    found = _shadowing(L.poisoning(_catalog(servers), "prefixed"))
    assert found == []
    servers.append(("chat", [("post_message", ["create_issue"])]))
    found = _shadowing(L.poisoning(_catalog(servers), "prefixed"))
    assert [f.message for f in found][-1] == ("names 'create_issue', a tool on 2 more other servers too (only the first "
                                              "10 are named, one finding each; these are not listed)")
    assert len(found) == 11
